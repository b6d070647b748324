// The app-usage port (docs/decisions/0013-app-usage-port.md): an HTTP adapter calling each app's
// portal API, a dev adapter for the stand-in apps, and "unavailable" when nothing is configured.
import type { Config } from '../config';
import type { AppUsageReporter, AppUserRef } from '../deps';

export class AppUsageUnavailable extends Error {}

type AppName = 'meishi' | 'scheduler';

/**
 * GET  {base}/portal-api/v1/tenants/{initial_subdomain}/users/{userId}/cards-count     -> {"count": n}
 * GET  {base}/portal-api/v1/tenants/{initial_subdomain}/users/{userId}/schedules-count -> {"count": n}
 * DELETE {base}/portal-api/v1/tenants/{initial_subdomain}/users/{userId}               -> 2xx or 404
 * with `Authorization: Bearer <APP_USAGE_TOKEN>` and `X-Portal-User-Email`.
 */
export function httpAppUsage(p: { urls: Partial<Record<AppName, string>>; token?: string; fetch?: typeof fetch }): AppUsageReporter {
  const doFetch = p.fetch ?? fetch;
  const call = async (app: AppName, method: 'GET' | 'DELETE', ref: AppUserRef, suffix: string) => {
    const base = p.urls[app];
    if (!base) throw new AppUsageUnavailable(`${app} is not configured`);
    const url = `${base.replace(/\/+$/, '')}/portal-api/v1/tenants/${encodeURIComponent(ref.tenantInitialSubdomain)}/users/${ref.userId}${suffix}`;
    const headers: Record<string, string> = { Accept: 'application/json', 'X-Portal-User-Email': ref.email };
    if (p.token) headers.Authorization = `Bearer ${p.token}`;
    try {
      return await doFetch(url, { method, headers, signal: AbortSignal.timeout(10_000) });
    } catch (e) {
      throw new AppUsageUnavailable(`${app}: ${String(e)}`);
    }
  };
  const count = async (app: AppName, ref: AppUserRef, what: string) => {
    const res = await call(app, 'GET', ref, `/${what}`);
    if (!res.ok) throw new AppUsageUnavailable(`${app} answered ${res.status}`);
    const body = (await res.json().catch(() => null)) as { count?: unknown } | null;
    const n = body?.count;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new AppUsageUnavailable(`${app} answered no count`);
    return n;
  };
  return {
    cardsCount: (ref) => count('meishi', ref, 'cards-count'),
    schedulesCount: (ref) => count('scheduler', ref, 'schedules-count'),
    async userRemoved(ref, apps) {
      for (const app of apps) {
        if (!p.urls[app]) continue; // an app without a portal API keeps no data to remove
        const res = await call(app, 'DELETE', ref, '');
        if (!res.ok && res.status !== 404) throw new AppUsageUnavailable(`${app} answered ${res.status}`);
      }
    },
  };
}

/** Dev stand-in apps hold no cards or schedules, so they truthfully report zero. */
export const standInAppUsage: AppUsageReporter = {
  cardsCount: async () => 0,
  schedulesCount: async () => 0,
  userRemoved: async () => undefined,
};

/** No app configured outside dev mode: counts fail (the portal never invents them). */
export const unavailableAppUsage: AppUsageReporter = {
  cardsCount: async () => {
    throw new AppUsageUnavailable('no card app configured');
  },
  schedulesCount: async () => {
    throw new AppUsageUnavailable('no scheduler configured');
  },
  userRemoved: async () => undefined,
};

export function appUsageReporter(config: Config): AppUsageReporter {
  if (config.APP_USAGE_MEISHI_URL || config.APP_USAGE_SCHEDULER_URL) {
    return httpAppUsage({ urls: { meishi: config.APP_USAGE_MEISHI_URL, scheduler: config.APP_USAGE_SCHEDULER_URL }, token: config.APP_USAGE_TOKEN });
  }
  return config.DEV_MODE ? standInAppUsage : unavailableAppUsage;
}
