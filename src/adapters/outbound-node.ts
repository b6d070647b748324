// Node (and the Node entry's tests): IdP metadata GETs over node:https. The name is resolved here,
// every address it resolves to is checked, and the socket connects to the address checked (the
// lookup hook hands it to the connection), so a DNS answer cannot change between check and use.
// A literal IP in the URL skips the lookup; the domain's URL check has refused bad ones already.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { OutboundHttp } from '../deps';
import { OutboundRefused } from '../domain/security/outbound';

type Resolve = (hostname: string, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
const systemResolve: Resolve = (hostname, cb) => dnsLookup(hostname, { all: true }, cb);

/** `ca`: an extra trusted certificate; `resolve`: the name resolution (tests map names to addresses). */
export function nodeOutbound(opts: { ca?: string; resolve?: Resolve } = {}): OutboundHttp {
  const resolve = opts.resolve ?? systemResolve;
  return {
    resolves: true,
    get(url, { signal, refused }) {
      const lookup: LookupFunction = (hostname, options, cb) => {
        resolve(hostname, (err, addresses) => {
          if (err) return cb(err, '', 4);
          if (addresses.length === 0 || addresses.some((a) => refused(a.address))) return cb(new OutboundRefused('address-refused') as NodeJS.ErrnoException, '', 4);
          if (options.all) return (cb as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
          cb(null, addresses[0]!.address, addresses[0]!.family);
        });
      };
      return new Promise((resolve, reject) => {
        const req = request(
          url,
          {
            method: 'GET',
            signal,
            lookup,
            ...(opts.ca ? { ca: opts.ca } : {}),
            headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8', 'user-agent': 'portal-idp-metadata' },
          },
          (res) => {
            const location = res.headers.location;
            resolve({ status: res.statusCode ?? 0, location: typeof location === 'string' ? location : null, body: res, cancel: () => res.destroy() });
          },
        );
        req.on('error', reject);
        req.end();
      });
    },
  };
}
