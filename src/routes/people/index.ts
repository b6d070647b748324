// People administration (admins and tenant managers): users, deactivated users, departments,
// invitations, CSV import.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { adminPeopleApi } from './api';
import { deactivatedPageScreen } from './deactivated-page';
import { departmentsPageScreen } from './departments-page';
import { adminImportApi } from './import-api';
import { usersPageScreen } from './users-page';

export { UPLOAD_PATHS } from './import-api';

export const people = feature({
  // The import's static paths (/admin/users/import...) before the user ids of the people calls.
  api: [adminImportApi, adminPeopleApi],
  pages: [
    new Hono<AppEnv>()
      .get('/admin/users', tenantPage, usersPageScreen)
      .get('/admin/deactivated', tenantPage, deactivatedPageScreen)
      .get('/admin/departments', tenantPage, departmentsPageScreen),
  ],
});
