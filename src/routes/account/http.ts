// HTTP details the account's calls and pages share: the per-address limits of the unauthenticated
// link and policy checks (the reset and registration pages, which also work without JavaScript,
// count in the same ones) and the origin a signed link was opened on.
import type { Ctx } from '../http/env';
import { limitPerAddress } from '../middleware/rate-limit';

export const resetCheckLimit = limitPerAddress('reset-check', 30, 60_000);
export const policyLimit = limitPerAddress('policy', 60, 60_000);
export const registerLimit = limitPerAddress('register', 20, 60_000);

/** The absolute origin a link was opened on: signatures cover it. */
export const requestOrigin = (c: Ctx) => `${c.get('https') ? 'https' : 'http'}://${new URL(c.req.url).host}`;
