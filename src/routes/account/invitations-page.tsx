// Invitations into other tenants (decision 0027): the signed-in person accepts or declines.
import { Hono } from 'hono';
import { listInvitations } from '../../domain/account/invitations';
import Invitations from '../../islands/account/Invitations';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { AppEnv } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { renderPage } from '../http/page';
import { signedInPage } from '../middleware/guards';

export const invitationPages = new Hono<AppEnv>();

invitationPages.get('/invitations', signedInPage, async (c) => {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const user = c.get('user');
  const { data } = await loadFrame(c, user);
  const rows = await listInvitations(deps.db, user.id);
  return renderPage(c, {
    titleKey: 'titles.invitations',
    body: (
      <Frame data={data}>
        <h1 className="mb-2 mt-0 text-2xl font-semibold">{t('invitations.heading')}</h1>
        <p className="mb-6 mt-0 max-w-3xl text-slate-800">{t('invitations.intro')}</p>
        <Island
          name="Invitations"
          component={Invitations}
          props={{ lang, basePath: deps.config.BASE_PATH, invitations: rows.map((r) => ({ tenantId: r.tenantId, tenantName: r.tenantName })) }}
        />
      </Frame>
    ),
  });
});
