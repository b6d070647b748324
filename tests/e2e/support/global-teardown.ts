// Removes the run's temporary database folder (created in playwright.config.ts).
import { rm } from 'node:fs/promises';

export default async function globalTeardown() {
  const dir = process.env.E2E_DB_DIR;
  if (dir && dir.includes('portal-e2e-')) await rm(dir, { recursive: true, force: true });
}
