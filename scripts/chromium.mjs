// The browser the journeys and `npm run screenshots` drive: Debian's Chromium (`npx playwright
// install` cannot download here). Checked before anything starts, so a machine without it is told
// what to install instead of failing every test with a launch error (issue 27 part 7).
import { accessSync, constants } from 'node:fs';

/** Overridable for another distribution's path (e.g. /usr/bin/chromium-browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** What to do when the browser is missing, or null when it is there. */
export function chromiumMissing() {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return null;
  } catch {
    return [
      `The browser tests need Chromium at ${CHROMIUM_PATH}, and it is not there.`,
      'Install it (Debian/Ubuntu), with the Japanese fonts the screenshots need:',
      '  sudo apt-get install chromium fonts-noto-cjk',
      'or point CHROMIUM_PATH at a Chromium you have (e.g. CHROMIUM_PATH=/usr/bin/chromium-browser).',
      '(`npx playwright install` downloads a browser from the internet; the project does not use it.)',
    ].join('\n');
  }
}
