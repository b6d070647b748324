// Two-factor authentication: setting it up in the account, and the codes at sign-in.
import { feature } from '../http/feature';
import { twofaPages } from './account-pages';
import { twofaApi } from './api';
import { twofaLoginPages } from './login-pages';

export const twofa = feature({ api: [twofaApi], pages: [twofaPages, twofaLoginPages] });
