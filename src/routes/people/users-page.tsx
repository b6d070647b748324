// User management (spec 02 "User management screen"): the list for the URL's search, sort and
// page comes from the server (the same data GET admin/users answers), so the first paint is
// complete and the links work without JavaScript; the UsersScreen island adds the actions.
import { readAll } from '../../db/client';
import { allowedAppsView, departmentNamesRead, importLogsRead, usersPageRead } from '../../domain/people/lists';
import UsersScreen from '../../islands/people/UsersScreen';
import { USER_SORTS, usersQuerySchema, type UsersPage } from '../../shared/people/schemas';
import { readListQuery, type ListQuery } from '../../shared/people/list-state';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { hasAccess } from '../middleware/guards';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, ManagerBanner } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function usersPageScreen(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const isAdmin = hasAccess(c, 'admin');
  const { data } = await loadFrame(c, c.get('user'));
  // An odd parameter falls back to its default (the rest of the query still applies) rather
  // than an error page; the result then passes the API's own schema.
  const params = new URL(c.req.url).searchParams;
  const query: ListQuery = readListQuery(params, USER_SORTS);
  const q = usersQuerySchema.parse({ search: query.q || undefined, sort: query.sort, order: query.dir, page: String(query.page), perPage: String(query.perPage) });
  // The same pieces GET admin/users, admin/apps/allowed, admin/departments and the import log
  // answer with (routes/people/api.ts), in one round trip after the principal's (issue 23).
  // The list's own pass over the members gives the seats in use, and the departments come
  // without their counts: five statements with the principal's (nine before).
  const { users, departments, importLogs } = await readAll(scope.db, {
    users: usersPageRead(scope, q, !isAdmin),
    departments: departmentNamesRead(scope),
    importLogs: importLogsRead(scope),
  });
  const list: UsersPage = users.page;
  const apps = allowedAppsView(users.apps, t);
  return renderPage(c, {
    titleKey: 'titles.admin-user-management',
    body: (
      <Frame data={data}>
        {!isAdmin && <ManagerBanner t={t} tenantName={scope.tenant.name} />}
        <AdminHeading t={t} titleKey="titles.admin-user-management" intro={t('people.users.intro')} />
        <Island
          name="UsersScreen"
          component={UsersScreen}
          props={{
            lang,
            basePath: deps.config.BASE_PATH,
            list,
            query,
            apps,
            departments,
            importLogs,
            now: deps.clock.now(),
            canExportAudit: isAdmin,
            // The "Add user" link before hydration (decision 0047); any other value is ignored.
            openDialog: params.get('dialog') === 'add-user' ? 'add-user' : null,
          }}
        />
      </Frame>
    ),
  });
}
