// Sign-in: the password login, the new-device code, hand-offs between hosts, the Outlook add-in,
// logout and the signed-in user (GET user), with the login screens.
import { feature } from '../http/feature';
import { authApi } from './api';
import { handoffPages } from './handoff-page';
import { loginPages } from './login-page';
import { challengeApi } from './new-device-api';
import { additionalChallengePages } from './new-device-page';
import { openMeishiMobilePages } from './open-meishi-mobile-page';

export const signIn = feature({ api: [authApi, challengeApi], pages: [loginPages, additionalChallengePages, openMeishiMobilePages, handoffPages] });
