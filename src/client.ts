// Browser entry: hydrates each island on the page with its own code-split chunk, after handing
// the islands the texts the server put in the page (no i18next and no locale file in the
// browser: src/island-texts.ts, decision 0029).
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { IslandName } from './island-texts';
import { setPageTexts } from './shared/i18n.browser';

const islands: Record<IslandName, () => Promise<{ default: ComponentType<any> }>> = {
  LoginForm: () => import('./islands/LoginForm'),
  Redirection: () => import('./islands/Redirection'),
  LanguageSwitch: () => import('./islands/LanguageSwitch'),
  Toolbar: () => import('./islands/Toolbar'),
  LanguageSetting: () => import('./islands/LanguageSetting'),
  Invitations: () => import('./islands/Invitations'),
  AppStandIn: () => import('./islands/AppStandIn'),
  ChangePasswordLauncher: () => import('./islands/ChangePasswordLauncher'),
  OutlookComplete: () => import('./islands/OutlookComplete'),
  ForgotForm: () => import('./islands/ForgotForm'),
  ResetForm: () => import('./islands/ResetForm'),
  RegisterForm: () => import('./islands/RegisterForm'),
  VerifyEmail: () => import('./islands/VerifyEmail'),
  SessionDevices: () => import('./islands/SessionDevices'),
  UnverifiedEmailBanner: () => import('./islands/UnverifiedEmailBanner'),
  AdditionalChallengeForm: () => import('./islands/AdditionalChallengeForm'),
  AccountNotice: () => import('./islands/AccountNotice'),
  VerifyPasswordForm: () => import('./islands/VerifyPasswordForm'),
  TwofaSetup: () => import('./islands/TwofaSetup'),
  TwofaDisable: () => import('./islands/TwofaDisable'),
  BackupCodesRegenerate: () => import('./islands/BackupCodesRegenerate'),
  OtpForm: () => import('./islands/OtpForm'),
  BackupCodeForm: () => import('./islands/BackupCodeForm'),
  SetupTwofaAtLogin: () => import('./islands/SetupTwofaAtLogin'),
  TenantUrlSettings: () => import('./islands/TenantUrlSettings'),
  IpRestriction: () => import('./islands/IpRestriction'),
  TwofaPolicyForm: () => import('./islands/TwofaPolicyForm'),
  PasswordPolicyForm: () => import('./islands/PasswordPolicyForm'),
  ContactDetails: () => import('./islands/ContactDetails'),
  MoreServicesForm: () => import('./islands/MoreServicesForm'),
  TrialExpiredPrompt: () => import('./islands/TrialExpiredPrompt'),
  CloseWindow: () => import('./islands/CloseWindow'),
  SsoSetting: () => import('./islands/SsoSetting'),
  UsersScreen: () => import('./islands/UsersScreen'),
  DeactivatedUsers: () => import('./islands/DeactivatedUsers'),
  Departments: () => import('./islands/Departments'),
};

setPageTexts(JSON.parse(document.getElementById('page-texts')?.textContent || '{}'));

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = el.dataset.island ?? '';
  const load = Object.prototype.hasOwnProperty.call(islands, name) ? islands[name as IslandName] : undefined;
  const propsEl = document.getElementById(`${el.dataset.islandId}-props`);
  if (!load || !propsEl) continue;
  const props = JSON.parse(propsEl.textContent || '{}');
  void load().then((m) => {
    hydrateRoot(el, createElement(m.default, props));
    el.dataset.hydrated = 'true';
  });
}
