// Browser entry: hydrates each island on the page with its own code-split chunk, after handing
// the islands the texts the server put in the page (no i18next and no locale file in the
// browser: src/island-texts.ts, decision 0029).
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { IslandName } from './island-texts';
import { AdoptTyped } from './islands/kit/adopt-typed';
import { setPageTexts } from './shared/i18n.browser';

const islands: Record<IslandName, () => Promise<{ default: ComponentType<any> }>> = {
  LoginForm: () => import('./islands/sign-in/LoginForm'),
  Redirection: () => import('./islands/sign-in/Redirection'),
  LanguageSwitch: () => import('./islands/account/LanguageSwitch'),
  Toolbar: () => import('./islands/frame/Toolbar'),
  LanguageSetting: () => import('./islands/account/LanguageSetting'),
  Invitations: () => import('./islands/account/Invitations'),
  AppStandIn: () => import('./islands/operations/AppStandIn'),
  ChangePasswordLauncher: () => import('./islands/account/ChangePasswordLauncher'),
  OutlookComplete: () => import('./islands/sign-in/OutlookComplete'),
  ForgotForm: () => import('./islands/account/ForgotForm'),
  ResetForm: () => import('./islands/account/ResetForm'),
  RegisterForm: () => import('./islands/account/RegisterForm'),
  VerifyEmail: () => import('./islands/account/VerifyEmail'),
  SessionDevices: () => import('./islands/account/SessionDevices'),
  UnverifiedEmailBanner: () => import('./islands/account/UnverifiedEmailBanner'),
  AdditionalChallengeForm: () => import('./islands/sign-in/AdditionalChallengeForm'),
  AccountNotice: () => import('./islands/frame/AccountNotice'),
  VerifyPasswordForm: () => import('./islands/twofa/VerifyPasswordForm'),
  TwofaSetup: () => import('./islands/twofa/TwofaSetup'),
  TwofaDisable: () => import('./islands/twofa/TwofaDisable'),
  BackupCodesRegenerate: () => import('./islands/twofa/BackupCodesRegenerate'),
  OtpForm: () => import('./islands/twofa/OtpForm'),
  BackupCodeForm: () => import('./islands/twofa/BackupCodeForm'),
  SetupTwofaAtLogin: () => import('./islands/twofa/SetupTwofaAtLogin'),
  PasskeyManager: () => import('./islands/passkeys/PasskeyManager'),
  SetupPasskeyAtLogin: () => import('./islands/passkeys/SetupPasskeyAtLogin'),
  TenantUrlSettings: () => import('./islands/tenant-settings/TenantUrlSettings'),
  IpRestriction: () => import('./islands/tenant-settings/IpRestriction'),
  TwofaPolicyForm: () => import('./islands/tenant-settings/TwofaPolicyForm'),
  PasswordPolicyForm: () => import('./islands/tenant-settings/PasswordPolicyForm'),
  ContactDetails: () => import('./islands/billing/ContactDetails'),
  MoreServicesForm: () => import('./islands/billing/MoreServicesForm'),
  TrialExpiredPrompt: () => import('./islands/billing/TrialExpiredPrompt'),
  CloseWindow: () => import('./islands/sso/CloseWindow'),
  SsoSetting: () => import('./islands/sso/SsoSetting'),
  ScimProvisioning: () => import('./islands/scim/ScimProvisioning'),
  UsersScreen: () => import('./islands/people/UsersScreen'),
  DeactivatedUsers: () => import('./islands/people/DeactivatedUsers'),
  Departments: () => import('./islands/people/Departments'),
};

setPageTexts(JSON.parse(document.getElementById('page-texts')?.textContent || '{}'));

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = el.dataset.island ?? '';
  const load = Object.prototype.hasOwnProperty.call(islands, name) ? islands[name as IslandName] : undefined;
  const propsEl = document.getElementById(`${el.dataset.islandId}-props`);
  if (!load || !propsEl) continue;
  const props = JSON.parse(propsEl.textContent || '{}');
  void load().then((m) => {
    // What was typed before the island arrived is adopted, not wiped (kit/adopt-typed.tsx).
    hydrateRoot(el, createElement(AdoptTyped, { root: el }, createElement(m.default, props)));
    el.dataset.hydrated = 'true';
  });
}
