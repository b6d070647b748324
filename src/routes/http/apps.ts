import type { Config } from '../../config';
import { readOne } from '../../db/client';
import { ssoStatusRead as ssoStatusReadOf, type SsoStatus } from '../../domain/sso/status';
import type { AppKey } from '../../shared/sign-in/redirection';
import type { Ctx } from './env';

export function appUrls(config: Config): Record<AppKey, string> {
  return { meishi: config.APP_URL_MEISHI, scheduler: config.APP_URL_SCHEDULER, meishi_operator: config.APP_URL_OPERATOR };
}

export function appPaths(config: Config): string[] {
  return Object.values(appUrls(config)).filter((u) => u.startsWith('/'));
}

/** SSO active-users status of the host tenant, as a read of a page's batch. */
export function ssoStatusRead(c: Ctx) {
  return ssoStatusReadOf(c.get('deps').db, c.get('hostTenant'));
}

export type { SsoStatus };

export function ssoStatus(c: Ctx): Promise<SsoStatus> {
  return readOne(c.get('deps').db, ssoStatusRead(c));
}
