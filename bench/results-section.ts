// One section of a results file (from its "## " heading to the next), replaced by a bench that owns
// it; the other benches' sections stay as they are. A section not there yet is appended.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function replaceSection(file: string, heading: string, section: string): void {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = old.indexOf(heading);
  const end = start >= 0 ? old.indexOf('\n## ', start + 1) : -1;
  const before = start >= 0 ? old.slice(0, start).trimEnd() : old.trimEnd();
  const after = end >= 0 ? `\n\n${old.slice(end + 1).trim()}\n` : '';
  writeFileSync(file, `${before}\n\n${section.trimEnd()}\n${after}`);
}
