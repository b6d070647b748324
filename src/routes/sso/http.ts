// What the SSO calls and the login page share.
import { limitPerAddress } from '../middleware/rate-limit';

// Lookups by email reveal SSO use, so they are rate limited per address: generous enough for an
// office of thousands behind one NAT address signing in at 9:00, far below bulk enumeration.
// The login page's form (without JavaScript) counts in the same limit.
export const ssoLookupLimit = limitPerAddress('sso-check', 600, 10 * 60_000);
