// Who an admin's change is audited as: the signed-in user, from the request's address and browser.
import type { PeopleActor } from '../../domain/people/users';
import type { TenantCtx } from './env';

export const actorOf = (c: TenantCtx): PeopleActor => ({ userId: c.get('user').id, ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null });
