// The parts of a signed mail link (register, verify) its page hands to the island. Values are
// passed through bounded and character-checked only: the API checks the signature.
import type { Ctx } from '../env';

export function signedLinkProps(c: Ctx) {
  const q = c.req.query();
  const clean = (v: string | undefined, re: RegExp) => (v !== undefined && re.test(v) ? v : '');
  const expires = clean(q.expires, /^[0-9]{1,12}$/);
  // Hono decodes path parameters.
  const email = (c.req.param('email') ?? '').slice(0, 254);
  // Links cached in a tab (or opened late) can expire before the island posts; checked again there.
  const expired = expires !== '' && Number(expires) * 1000 <= c.get('deps').clock.now();
  // Keep the signature out of Referer headers to other sites (same-origin, not no-referrer: the
  // registration form's own post must carry a real Origin; decision 0029).
  c.header('Referrer-Policy', 'same-origin');
  return {
    email,
    id: clean(q.id, /^[0-9]{1,12}$/),
    expires,
    signature: clean(q.signature ?? q['amp;signature'], /^[0-9a-f]{1,128}$/),
    expired,
  };
}
