// SMS at the forced 2FA setup at login on workerd + D1 (decision 0046; the libSQL side is
// tests/integration/twofa-setup-at-login-sms.test.ts): the one-a-minute claim on the pending login
// and the hourly limits are single statements on D1 too. Tenant `twofaw` (support/twofa-tenant.sql).
import { describe, expect, inject, it } from 'vitest';
import { Browser } from './support/client';

const port = inject('workerPort');
const HOST = 'twofaw.localhost';
const parallel = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

async function atSetup(email: string) {
  const b = new Browser(port).on(HOST);
  expect((await b.login(email)).body.message).toBe('enable-twofa');
  expect((await b.post('/accounts/api/setup-twofa-at-login/setup')).status).toBe(200);
  return b;
}

describe('SMS at the forced setup on D1', () => {
  it('20 parallel sends on one pending login: one is sent, the others wait the minute', async () => {
    const b = await atSetup('sms-a@twofaw.test');
    const rs = await parallel(20, () => b.post('/accounts/api/setup-twofa-at-login/sms/otp', { contact: '+819012345691' }));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 429), JSON.stringify(rs.filter((r) => r.status !== 200 && r.status !== 429).map((r) => [r.status, r.body]))).toHaveLength(19);
  });

  it('parallel sends from 8 pending logins of one person: 5 an hour', async () => {
    const browsers = [];
    for (let i = 0; i < 8; i++) browsers.push(await atSetup('sms-b@twofaw.test'));
    const rs = await Promise.all(browsers.map((b, i) => b.post('/accounts/api/setup-twofa-at-login/sms/otp', { contact: `+8190123457${10 + i}` })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(5);
    expect(rs.filter((r) => r.status === 429)).toHaveLength(3);
  });
});
