// Who an admin's change is audited as: the signed-in user, from the request's address and browser.
import type { PeopleActor } from '../../domain/people/users';
import type { TenantCtx } from './env';

export const actorOf = (c: TenantCtx): PeopleActor => ({ userId: c.var.user.id, ip: c.var.clientIp, userAgent: c.req.header('user-agent') ?? null });
