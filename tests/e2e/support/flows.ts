// Steps several journeys share, written the way a user performs them.
import type { Page, Response } from '@playwright/test';
import { BASE, expect, gotoHydrated, origin } from '../fixtures';
import type { Text } from './text';

export function loginResponse(page: Page): Promise<Response> {
  return page.waitForResponse((r) => new URL(r.url()).pathname === `${BASE}/api/v2/login` && r.request().method() === 'POST');
}

/** On a tenant host: email, Next, then the password appears with the email locked. */
export async function enterEmailOnTenantHost(page: Page, t: Text, email: string): Promise<void> {
  await page.getByLabel(t.email).fill(email);
  await page.getByRole('button', { name: t.next, exact: true }).click();
  await expect(page.getByLabel(t.password, { exact: true })).toBeFocused();
  await expect(page.getByLabel(t.email)).toHaveAttribute('readonly', '');
}

/** Submits the password step and returns the login call's response. */
export async function submitPassword(page: Page, t: Text, password: string): Promise<Response> {
  await page.getByLabel(t.password, { exact: true }).fill(password);
  const response = loginResponse(page);
  await page.getByRole('button', { name: t.logIn, exact: true }).click();
  return response;
}

/** Opens the tenant host's login page and signs in (email, Next, password, Log in). */
export async function signInOnTenantHost(page: Page, t: Text, label: string, email: string, password: string): Promise<Response> {
  await gotoHydrated(page, `${origin(label)}${BASE}/login`);
  await enterEmailOnTenantHost(page, t, email);
  return submitPassword(page, t, password);
}
