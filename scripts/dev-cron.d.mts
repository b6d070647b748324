export function localCrons(toml: string): string[];
export function cronMatches(expr: string, date: Date): boolean;
export function startCronTimer(
  crons: string[],
  fire: (cron: string) => void,
  opts?: { now?: () => number; timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void } },
): () => void;
