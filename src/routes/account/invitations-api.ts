// The person's side of invitations into other tenants (decision 0027).
import { Hono } from 'hono';
import { acceptInvitation, declineInvitation, listInvitations } from '../../domain/account/invitations';
import { idParam } from '../http/params';
import type { AppEnv } from '../http/env';
import { requireSession } from '../middleware/guards';

export const invitationsApi = new Hono<AppEnv>();

invitationsApi.get('/invitations', requireSession, async (c) => {
  const rows = await listInvitations(c.get('deps').db, c.get('user').id);
  return c.json({ invitations: rows.map((r) => ({ tenant_id: r.tenantId, tenant_name: r.tenantName, invited_at: new Date(r.invitedAt).toISOString() })) });
});

invitationsApi.post('/invitations/:tenantId/accept', requireSession, async (c) => {
  await acceptInvitation(c.get('deps'), c.get('user'), c.get('session'), idParam(c.req.param('tenantId')), c.get('clientIp'));
  return c.json({ message: 'success' });
});

invitationsApi.post('/invitations/:tenantId/decline', requireSession, async (c) => {
  await declineInvitation(c.get('deps'), c.get('user'), c.get('session'), idParam(c.req.param('tenantId')), c.get('clientIp'));
  return c.json({ message: 'success' });
});
