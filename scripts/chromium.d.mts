export const CHROMIUM_PATH: string;
export function chromiumMissing(): string | null;
