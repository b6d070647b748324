// SCIM provisioning (decision 0040): the admin's "Provisioning (SCIM)" screen and its calls. The
// protocol endpoint itself (service.ts) is mounted by createApp at <base>/scim/v2, outside the API.
import { feature } from '../http/feature';
import { scimAdminApi } from './api';

export const scim = feature({ api: [scimAdminApi] });
