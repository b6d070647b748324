/** The Deno executable of the npm `deno` package. */
export function denoExecutable(): string;
/** The permissions the portal needs on Deno; `dataDir` is the one folder it may write. */
export function denoPermissions(dataDir?: string): string[];
