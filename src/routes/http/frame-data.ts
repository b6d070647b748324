import { canonicalLabel } from '../../domain/tenants/hosts';
import { activeOnly, listMemberships } from '../../domain/tenants/memberships';
import { accountNotice } from '../../shared/notices';
import type { FrameData } from '../../ui/Frame';
import type { Tenant, User } from '../../db/schema';
import type { Ctx } from './env';
import { hasAccess } from '../middleware/guards';

const BANNER_DAYS_MS = 30 * 24 * 60 * 60_000;

/** The certificate banner for an admin of a tenant using SSO: from the tenant row, no query. */
function ssoCertificateBanner(c: Ctx, host: Tenant | null | undefined): FrameData['ssoCertificate'] {
  const ends = host?.ssoCertificateExpiresAt;
  if (!host?.isSsoEnabled || ends == null || !hasAccess(c, 'admin')) return null;
  const now = c.get('deps').clock.now();
  return ends - now <= BANNER_DAYS_MS ? { expiresAt: ends, expired: ends <= now } : null;
}

/** Everything the frame shows, for a signed-in request (`user`: who is signed in). */
export async function loadFrame(c: Ctx, user: User) {
  const memberships = activeOnly(c.get('memberships') ?? (await listMemberships(c.get('deps').db, user.id)));
  const host = c.get('hostTenant');
  const current = host ? memberships.find((m) => m.tenant.id === host.id) : undefined;
  const url = new URL(c.req.url);
  const notice = accountNotice(url.searchParams.get('notice'));
  // The notice is shown once: the same page on another tenant's host goes without it.
  if (notice) url.searchParams.delete('notice');
  const data: FrameData = {
    lang: c.get('lang'),
    t: c.get('t'),
    config: c.get('deps').config,
    userName: user.name,
    isAdmin: hasAccess(c, 'admin'),
    canManagePeople: hasAccess(c, 'admin-or-manager'),
    apps: current?.apps ?? [],
    tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), current: m.tenant.id === host?.id })),
    currentPath: url.pathname + url.search,
    activeRoute: c.get('route')?.drawerEntry ?? c.get('route')?.name ?? null,
    notice,
    ssoCertificate: ssoCertificateBanner(c, host),
    trialExpired: host?.status === 'trial_expired_not_yet_contracted' && hasAccess(c, 'admin') ? { initialSubdomain: host.initialSubdomain } : null,
  };
  return { data, memberships, current };
}
