// Passkeys (decision 0039): sign-in with a passkey on every host, the passkey steps of a pending
// login, the person's own passkeys, and an admin's removal of a member's passkeys.
import { feature } from '../http/feature';
import { passkeysApi } from './api';
import { passkeyPages } from './pages';

export const passkeys = feature({ api: [passkeysApi], pages: [passkeyPages] });
