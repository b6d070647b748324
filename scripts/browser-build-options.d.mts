import type { BuildOptions } from 'esbuild';

/** esbuild options of the browser bundle (scripts/browser-build-options.mjs). */
export function browserBuildOptions(root: string): BuildOptions & { metafile: true };
