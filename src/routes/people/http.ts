// What the people calls share: the tenant an admin or tenant manager manages (the guard guarantees
// a host tenant) and the actor their changes are audited with.
import type { Context } from 'hono';
import type { PeopleActor } from '../../domain/people/users';
import type { AuthedEnv } from '../http/env';

export type Authed = Context<AuthedEnv>;
export const tenantOf = (c: Authed) => c.get('hostTenant')!;
export const peopleActor = (c: Authed): PeopleActor => ({ userId: c.get('user').id, ip: c.get('clientIp'), userAgent: c.req.header('user-agent') ?? null });
