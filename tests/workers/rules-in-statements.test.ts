// Issue 21 root 3 on workerd + D1, decision 0035: two tenants adding one new address at the same
// moment never both make it a full member; the decision is inside the insert.
import { describe, expect, inject, it } from 'vitest';
import { Browser } from './support/client';

const port = inject('workerPort');
const PW = 'Portal-Demo-2026!';

const newUser = (email: string) => ({ name: '新人 一郎', email, department_id: null, is_admin: false, allowedApps: ['meishi'], additionalDepartmentIds: [], saml_name_id: null, is_sso_enabled: false });

describe('a new address added by two tenants at once', () => {
  it('20 rounds: one full membership and one invitation each time', async () => {
    // Globex (its admin multi@example.test) and the revocations tenant, both with unlimited seats.
    const globex = new Browser(port).on('globex-jp.localhost');
    const other = new Browser(port).on('revokew.localhost');
    expect((await globex.login('multi@example.test', PW)).body.message).toBe('success');
    expect((await other.login('race-admin@revokew.test', PW)).body.message).toBe('success');
    const run = Date.now();
    for (let round = 0; round < 20; round++) {
      const email = `wk-race-${run}-${round}@example.test`;
      const [a, b] = await Promise.all([globex.post('/accounts/api/admin/users', newUser(email)), other.post('/accounts/api/admin/users', newUser(email))]);
      expect([a.status, b.status], `round ${round}`).toEqual([201, 201]);
      const pending = [a.body.user.invitation_pending, b.body.user.invitation_pending] as boolean[];
      expect(pending.filter(Boolean), `round ${round}`).toHaveLength(1);
    }
  });
});
