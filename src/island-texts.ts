// The texts each island can show, as key prefixes of locales/*.json ("login" covers every
// "login.*" key, "errors.generic" that one key). A page carries the texts of the islands on it and
// no others (src/ui/render.tsx), so the browser needs neither i18next nor a whole language
// (decision 0029). An island's entry covers everything its code and the components it imports
// (lazily too) may translate: tests/unit/island-texts.test.ts reads their source and fails on a
// key that no entry covers, and on an entry that covers nothing. src/client.ts loads exactly
// these islands.

import { ERRORS } from './shared/error-codes';

const VALIDATION = ['validation'];
/** What an island that shows a refusal in the error catalogue's words may show (src/shared/error-codes.ts). */
const ERROR_TEXTS = [...new Set(Object.values(ERRORS).map((e) => e.text))];
const REDIRECTION = ['redirection', 'apps', 'common.loading', 'errors.generic'];
const PASSWORD_FIELDS = ['passwordForm', 'passwordRules.confirmationMismatch'];
const CHANGE_PASSWORD = ['changePassword', 'common.close', 'passwordRules.server', ...PASSWORD_FIELDS];
const OUTLOOK = ['outlook'];
/** What follows a sign-in: the forced change-password dialog, the Outlook mapping, the redirection. */
const AFTER_SIGN_IN = [...REDIRECTION, ...CHANGE_PASSWORD, ...OUTLOOK];
/** The kit's code steps (src/islands/kit/code-step.tsx): the boxes' names and the resend's throttle. */
const CODE_STEP = ['kit.digit', 'kit.codeIncomplete', 'errors.too-many-attempts', 'common.backToLogin'];
const TWOFA_PARTS = ['twofa', 'product.name', 'kit.copy', 'kit.copied', 'kit.copyFailed', ...CODE_STEP];
const ADMIN_PARTS = ['admin', 'errors.generic'];
const PEOPLE_PARTS = ['people', 'admin', 'dates', 'validation.required', 'validation.emailInvalid', ...ERROR_TEXTS];
/**
 * What the people screens other than the users list share (the table, its rows, the schemas): not
 * the import's and the user form's texts, a third of a page's bytes (issue 23).
 */
const PEOPLE_TABLE_PARTS = [
  'people.cols',
  'people.list',
  'people.validation',
  ...['deleteStarted', 'deletedOne', 'deleting', 'invitationPending'].map((k) => `people.users.${k}`),
  'admin',
  'dates',
  'validation.required',
  'validation.emailInvalid',
  ...ERROR_TEXTS,
];
/** A passkey ceremony that did not end in an answer (islands/passkeys/ceremony.ts callers). */
const PASSKEY_CEREMONY = ['passkeys.signIn.cancelled', 'passkeys.signIn.unsupported'];

export const ISLAND_TEXTS = {
  LoginForm: [
    ...['email', 'password', 'remember', 'forgot', 'next', 'submit', 'back', 'or', 'ssoButton', 'ssoSubmit', 'throttled'].map((k) => `login.${k}`),
    'passkeys.signIn',
    'errors.restricted-ip-address',
    ...ERROR_TEXTS,
    ...VALIDATION,
    ...AFTER_SIGN_IN,
  ],
  Redirection: REDIRECTION,
  LanguageSwitch: ['language', 'login.language'],
  Toolbar: ['toolbar', 'switchOrganization', 'product.suite', 'product.accounts', 'errors.generic'],
  LanguageSetting: ['language', 'login.language', 'myAccount.changeLanguage', 'errors.generic'],
  Invitations: ['invitations', 'people.list', 'errors.generic'],
  AppStandIn: ['dev', 'apps', 'common.backToMyAccount'],
  ChangePasswordLauncher: ['myAccount.changePassword', ...CHANGE_PASSWORD],
  OutlookComplete: OUTLOOK,
  ForgotForm: ['forgot', 'errors.generic', ...VALIDATION],
  ResetForm: ['reset', ...PASSWORD_FIELDS, ...REDIRECTION],
  RegisterForm: ['register', 'common.backToLogin', ...ERROR_TEXTS, ...PASSWORD_FIELDS, ...REDIRECTION],
  VerifyEmail: ['verify'],
  SessionDevices: ['devices', 'dates', 'people.list', 'errors.generic'],
  UnverifiedEmailBanner: ['unverified', 'errors.generic'],
  AdditionalChallengeForm: ['challenge', 'common.backToLogin', 'errors.generic', ...CODE_STEP, ...AFTER_SIGN_IN],
  AccountNotice: ['twofa.notice', 'myAccount.scope.notice', 'admin.common.close', 'errors.generic'],
  VerifyPasswordForm: ['verifyPassword', 'common.backToMyAccount', 'validation.required', 'passwordForm', ...ERROR_TEXTS, ...CODE_STEP],
  TwofaSetup: ['common.loading', ...VALIDATION, ...TWOFA_PARTS],
  TwofaDisable: TWOFA_PARTS,
  BackupCodesRegenerate: ['verifyPassword', 'validation.required', 'passwordForm', ...ERROR_TEXTS, ...TWOFA_PARTS],
  OtpForm: ['otp', 'common.backToLogin', 'errors.generic', 'twofa.notice', 'myAccount.scope.notice', 'passkeys.secondStep', 'passkeys.errors.invalid', ...PASSKEY_CEREMONY, ...CODE_STEP, ...AFTER_SIGN_IN],
  BackupCodeForm: ['backupLogin', 'common.backToLogin', ...VALIDATION, ...CODE_STEP, ...AFTER_SIGN_IN],
  SetupTwofaAtLogin: ['setupAtLogin', 'common.backToLogin', 'myAccount.scope.notice', ...VALIDATION, ...TWOFA_PARTS, ...AFTER_SIGN_IN],
  PasskeyManager: [
    ...['cancel', 'manage', 'storage', 'verify', 'name', 'remove', 'errors'].map((k) => `passkeys.${k}`),
    'passkeys.signIn.unsupported',
    'verifyPassword.wrong',
    'validation.required',
    'passwordForm',
    'dates',
    ...ERROR_TEXTS,
  ],
  SetupPasskeyAtLogin: ['passkeys.enrol', 'twofa.notice', 'kit.digit', 'kit.codeIncomplete', 'passkeys.manage.cancelled', 'passkeys.errors.alreadyOnDevice', 'passkeys.signIn.unsupported', 'common.backToLogin', ...ERROR_TEXTS, ...AFTER_SIGN_IN],
  TenantUrlSettings: ['tenantSettings', 'kit.copy', 'kit.copied', 'kit.copyFailed', ...PASSWORD_FIELDS, ...ADMIN_PARTS, 'validation.required'],
  IpRestriction: ['ipRestriction', 'people.list', 'lockout', ...ERROR_TEXTS, ...ADMIN_PARTS],
  TwofaPolicyForm: ['twofaPolicy', 'passkeys.policy', 'admin', 'errors.generic', 'lockout'],
  PasswordPolicyForm: ['passwordPolicy', 'lockout', ...ADMIN_PARTS],
  ContactDetails: ['contacts', ...ADMIN_PARTS, 'validation.required'],
  MoreServicesForm: ['moreServices', ...ADMIN_PARTS, 'validation.required'],
  TrialExpiredPrompt: ['trialExpired', ...ADMIN_PARTS, 'validation.required'],
  CloseWindow: ['sso.close'],
  SsoSetting: ['sso', 'kit.copy', 'kit.copied', 'kit.copyFailed', 'ipRestriction.on', 'ipRestriction.off', 'errors.reload', ...ADMIN_PARTS, 'validation.required'],
  ScimProvisioning: ['scim', 'apps', 'dates', 'people.list', 'kit.copy', 'kit.copied', 'kit.copyFailed', 'validation.required', ...ERROR_TEXTS, ...ADMIN_PARTS],
  UsersScreen: ['apps', 'lockout', ...PEOPLE_PARTS],
  DeactivatedUsers: ['people.deactivated', 'people.roles', 'people.errors', 'people.users.deleteTitle', 'people.users.deleteText', ...PEOPLE_TABLE_PARTS],
  Departments: ['people.departments', ...PEOPLE_TABLE_PARTS],
} satisfies Record<string, readonly string[]>;

export type IslandName = keyof typeof ISLAND_TEXTS;

export function isIslandName(name: string): name is IslandName {
  return Object.prototype.hasOwnProperty.call(ISLAND_TEXTS, name);
}
