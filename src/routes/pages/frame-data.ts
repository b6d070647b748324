import { canonicalLabel } from '../../domain/tenants/hosts';
import { activeOnly, listMemberships } from '../../domain/tenants/memberships';
import type { FrameData } from '../../ui/Frame';
import type { Ctx } from '../env';
import { hasAccess } from '../middleware/guards';

/** Everything the frame shows, for a signed-in request. */
export async function loadFrame(c: Ctx) {
  const user = c.var.user!;
  const memberships = activeOnly(await listMemberships(c.var.deps.db, user.id));
  const host = c.var.hostTenant;
  const current = host ? memberships.find((m) => m.tenant.id === host.id) : undefined;
  const url = new URL(c.req.url);
  const data: FrameData = {
    lang: c.var.lang,
    t: c.var.t,
    config: c.var.deps.config,
    userName: user.name,
    isAdmin: hasAccess(c, 'admin'),
    canManagePeople: hasAccess(c, 'admin-or-manager'),
    apps: current?.apps ?? [],
    tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, hostLabel: canonicalLabel(m.tenant), current: m.tenant.id === host?.id })),
    currentPath: url.pathname + url.search,
    activeRoute: c.var.route?.name ?? null,
  };
  return { data, memberships, current };
}
