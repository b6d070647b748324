// Workers: Cloudflare sets CF-Connecting-IP and request.cf (country, city, region) itself.
import type { RuntimePort } from '../deps';

interface CfProps {
  country?: string;
  city?: string;
  region?: string;
  asn?: number;
  colo?: string;
  postalCode?: string;
}

/**
 * wrangler dev's stand-in `request.cf` (miniflare's `fallbackCf`, used offline and whenever
 * `npm start` turns the cf.json download off): Austin, Texas for every request. It says nothing
 * about the person, so it is no location at all (issue 27 part 7).
 */
export function isPlaceholderCf(cf: CfProps): boolean {
  return cf.asn === 395747 && cf.colo === 'DFW' && cf.postalCode === '78701' && cf.city === 'Austin';
}

export const workerRuntime: RuntimePort = {
  clientIp: (req) => req.headers.get('cf-connecting-ip'),
  isHttps: (req) => req.url.startsWith('https:'),
  header: (req, _env, name) => req.headers.get(name) ?? undefined,
  // Cloudflare's own id of the request, also in its logs.
  requestId: (req) => req.headers.get('cf-ray'),
  geo(req) {
    const cf = (req as Request & { cf?: CfProps }).cf;
    if (!cf?.country || isPlaceholderCf(cf)) return null;
    const name = (() => {
      try {
        return new Intl.DisplayNames(['en'], { type: 'region' }).of(cf.country!) ?? null;
      } catch {
        return null;
      }
    })();
    return { countryCode: cf.country, country: name, city: cf.city ?? null, state: cf.region ?? null };
  },
};
