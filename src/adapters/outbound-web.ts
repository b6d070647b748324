// Workers and Deno: IdP metadata GETs with the platform's fetch, redirects not followed (the
// domain checks each hop). workerd cannot resolve names, so there the URL checks of
// domain/security/outbound.ts are what holds; Cloudflare itself refuses fetches to IP literals and
// does not route Workers subrequests into private networks (decision 0042). Deno resolves the name
// first and refuses a refused address (checked, not pinned: Deno's fetch takes no address).
import type { OutboundHttp } from '../deps';
import { OutboundRefused } from '../domain/security/outbound';

async function* chunks(body: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

export function webOutbound(resolve?: (hostname: string) => Promise<string[]>): OutboundHttp {
  return {
    resolves: Boolean(resolve),
    async get(url, { signal, refused }) {
      if (resolve && !/^[\d.]+$|^\[/.test(url.hostname)) {
        const addresses = await resolve(url.hostname);
        if (addresses.length === 0 || addresses.some(refused)) throw new OutboundRefused('address-refused');
      }
      const res = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8' } });
      return {
        status: res.status,
        location: res.headers.get('location'),
        body: res.body ? chunks(res.body) : null,
        cancel: () => void res.body?.cancel().catch(() => undefined),
      };
    },
  };
}
