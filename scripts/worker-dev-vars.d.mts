export const PASSED_THROUGH: string[];
export function workerDevVarMap(env: Record<string, string | undefined>, port: string | number): Record<string, string>;
export function workerDevVars(env: Record<string, string | undefined>, port: string | number): string[];
