// The person's account: forgot and reset password, registration and verification links, change
// password, session devices, invitations into other tenants, language, my-account.
import { feature } from '../http/feature';
import { accountApi } from './api';
import { forgotPages } from './forgot-page';
import { invitationsApi } from './invitations-api';
import { invitationPages } from './invitations-page';
import { languagePages } from './language-page';
import { accountPages } from './my-account-page';
import { registerPages } from './register-page';
import { resetPages } from './reset-page';
import { verifyPages } from './verify-page';

export const account = feature({
  api: [accountApi, invitationsApi],
  pages: [languagePages, accountPages, invitationPages, forgotPages, resetPages, registerPages, verifyPages],
});
