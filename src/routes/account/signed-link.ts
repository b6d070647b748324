// A signed mail link (register, verify) as its page and the API read it: every parameter under its
// own name or its `amp;` name, one value each (`readSignedLinkParams`, decision 0037), so the page,
// its no-JavaScript post and the API call the island makes all see the same link.
import type { LinkQuery } from '../../domain/account/registration';
import { readSignedLinkParams, signedLinkQuerySchema, type SignedLinkParams } from '../../shared/schemas';
import type { Ctx } from '../http/env';

/** The request's signed-link parameters; null when one is given twice with different values. */
export const signedLinkParams = (c: Ctx): SignedLinkParams | null => readSignedLinkParams(c.req.queries());

/**
 * The link to check: the user id (the page's query, or the API's path) and the signed parts, with
 * the address it was made for (the page's path, or the API's `email`). Null when it cannot be a
 * link we signed (missing, malformed or conflicting parameters): "Invalid signature.".
 */
export function presentedLink(params: SignedLinkParams | null, id: string | undefined, email: string | undefined): { id: number; query: LinkQuery } | null {
  if (!params || id === undefined || !/^[0-9]{1,12}$/.test(id) || Number(id) <= 0) return null;
  const query = signedLinkQuerySchema.safeParse({ expires: params.expires, signature: params.signature, email });
  return query.success ? { id: Number(id), query: query.data } : null;
}

/** The page's link, from its query and path. */
export const pageLink = (c: Ctx) => {
  const params = signedLinkParams(c);
  return presentedLink(params, params?.id, c.req.param('email'));
};

// The parts of the link its page hands to the island. Values are passed through bounded and
// character-checked only: the API checks the signature. Conflicting parameters give empty values,
// which the API refuses as "Invalid signature.".
export function signedLinkProps(c: Ctx) {
  const q = signedLinkParams(c) ?? {};
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
    signature: clean(q.signature, /^[0-9a-f]{1,128}$/),
    expired,
  };
}
