// SMS through a Twilio-style REST API over fetch (runs on Node and Workers alike):
// POST <SMS_API_URL> form-encoded To, From, Body with HTTP basic auth.
import type { SmsSender } from '../deps';

export function httpSms(p: { url: string; user?: string; token?: string; from?: string }): SmsSender {
  return {
    async send(m) {
      const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
      if (p.user) headers.Authorization = `Basic ${btoa(`${p.user}:${p.token ?? ''}`)}`;
      const res = await fetch(p.url, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ To: m.to, ...(p.from ? { From: p.from } : {}), Body: m.body }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`SMS provider answered ${res.status}`);
    },
  };
}
