// Departments (spec 02 "Departments screen"): the list from the server, the Departments island
// for add, edit and delete.
import { readOne } from '../../db/client';
import { departmentsRead } from '../../domain/people/lists';
import Departments from '../../islands/people/Departments';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { hasAccess } from '../middleware/guards';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, ManagerBanner } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function departmentsPageScreen(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const isAdmin = hasAccess(c, 'admin');
  const { data } = await loadFrame(c, c.get('user'));
  const departments = await readOne(scope.db, departmentsRead(scope));
  return renderPage(c, {
    titleKey: 'titles.admin-department-management',
    body: (
      <Frame data={data}>
        {!isAdmin && <ManagerBanner t={t} tenantName={scope.tenant.name} />}
        <AdminHeading t={t} titleKey="titles.admin-department-management" intro={t('people.departments.intro')} />
        <Island name="Departments" component={Departments} props={{ lang, basePath: deps.config.BASE_PATH, departments }} />
      </Frame>
    ),
  });
}
