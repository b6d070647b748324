export const PASSED_THROUGH: string[];
export function workerDevVars(env: Record<string, string | undefined>, port: string | number): string[];
