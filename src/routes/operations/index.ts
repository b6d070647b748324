// Running the portal: the public maintenance messages (the dev-mode stand-in app pages are
// mounted by src/app.ts at the root, outside the base path).
import { feature } from '../http/feature';
import { maintenanceApi } from './api';

export const operations = feature({ api: [maintenanceApi] });
