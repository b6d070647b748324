// Deactivated users (spec 02 "Deactivated users screen"): back button, the list by deactivated_at
// descending, 25 per page (?page= in the URL), and the DeactivatedUsers island for the row menu.
import { readOne } from '../../db/client';
import { allowedAppsView, deactivatedRead } from '../../domain/people/lists';
import DeactivatedUsers from '../../islands/people/DeactivatedUsers';
import { DEACTIVATED_PAGE_SIZE, pageQuerySchema } from '../../shared/people/schemas';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { hasAccess } from '../middleware/guards';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, ManagerBanner } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function deactivatedPageScreen(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const base = deps.config.BASE_PATH;
  const isAdmin = hasAccess(c, 'admin');
  const { data } = await loadFrame(c, c.get('user'));
  const parsed = pageQuerySchema.safeParse({ page: c.req.query('page') });
  const page = parsed.success ? parsed.data.page : 1;
  const { list, apps: seats } = await readOne(scope.db, deactivatedRead(scope, page, DEACTIVATED_PAGE_SIZE));
  const apps = allowedAppsView(seats, t);
  return renderPage(c, {
    titleKey: 'titles.admin-deactivated-user-management',
    body: (
      <Frame data={data}>
        {!isAdmin && <ManagerBanner t={t} tenantName={scope.tenant.name} />}
        <p className="m-0 mb-3">
          <a href={`${base}/admin/users`} className="inline-flex items-center gap-1 rounded border border-slate-600 bg-white px-3 py-1 text-slate-900 no-underline hover:bg-slate-100">
            <span aria-hidden="true">←</span>
            {t('people.deactivated.back')}
          </a>
        </p>
        <AdminHeading t={t} titleKey="titles.admin-deactivated-user-management" intro={t('people.deactivated.intro')} />
        <Island name="DeactivatedUsers" component={DeactivatedUsers} props={{ lang, basePath: base, list, apps }} />
      </Frame>
    ),
  });
}
