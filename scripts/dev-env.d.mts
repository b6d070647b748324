export const DEV_DEFAULTS: { DEV_MODE: string; HANDOFF_BROWSER_BINDING: string };
export const DEV_PORT: string;
export function devEnv<T extends Record<string, string | undefined>>(env: T): T & Record<string, string | undefined>;
export function printEnvAndExit(argv: string[], env: Record<string, string | undefined>): void;
