// Readable names of the audit log's actions (the code words the domain writes), in both languages
// (locales `activityLogs.events.*`), and the families the screen's filter offers. An action that
// has no name of its own reads as its family's ("Sign-in refused (reason)", "Operator action
// (tenant_updated)") or, failing that, as its code word: the log never hides an entry.
import { allTexts, type Lang, type T } from '../../shared/i18n';
import { escapeHtml } from '../../ui/render';

/** The filter's families and the actions of each the domain writes today (src/domain, grep "action:"). */
export const ACTION_GROUPS: { family: string; actions: string[] }[] = [
  { family: 'login', actions: ['login.succeeded', 'login.failed', 'login.sso', 'login.handoff', 'login.backup_code_used', 'login.invalid-otp', 'login.invalid-backup-code', 'login.passkey', 'login.passkey_failed'] },
  { family: 'logout', actions: ['logout'] },
  { family: 'session', actions: ['session.revoked', 'session.revoked_others'] },
  { family: 'password', actions: ['password.changed', 'password.reset', 'password.reset_requested'] },
  { family: 'twofa', actions: ['twofa.enabled', 'twofa.disabled', 'twofa.backup_codes_regenerated', 'twofa.remembered_device_forgotten', 'twofa.setup_skipped'] },
  { family: 'passkey', actions: ['passkey.added', 'passkey.renamed', 'passkey.removed', 'passkey.verification_failed'] },
  {
    family: 'user',
    actions: ['user.created', 'user.updated', 'user.invited', 'user.registered', 'user.email_verified', 'user.deactivated', 'user.reactivated', 'user.deletion_started', 'user.deleted', 'user.passkeys_removed'],
  },
  { family: 'users', actions: ['users.imported', 'users.import_updated', 'users.invited', 'users.sso_enabled_for_all', 'users.sso_disabled_for_all'] },
  { family: 'department', actions: ['department.created', 'department.renamed', 'department.members_changed', 'department.deleted'] },
  { family: 'invitation', actions: ['invitation.accepted', 'invitation.declined'] },
  { family: 'tenant', actions: ['tenant.subdomain_changed', 'tenant.password_policy_changed', 'tenant.twofa_policy_changed', 'tenant.passkey_policy_changed'] },
  { family: 'ip_restriction', actions: ['ip_restriction.added', 'ip_restriction.deleted', 'ip_restriction.enabled', 'ip_restriction.disabled'] },
  { family: 'admin.sso', actions: ['admin.sso.settings-saved', 'admin.sso.enabled', 'admin.sso.disabled'] },
  { family: 'scim', actions: ['scim.token_created', 'scim.token_revoked', 'scim.settings_updated'] },
  { family: 'contact', actions: ['contact.primary_updated', 'contact.billing_created', 'contact.billing_updated', 'contact.billing_deleted'] },
  { family: 'billing', actions: ['billing.contract_applied', 'billing.more_services_requested'] },
  { family: 'outlook', actions: ['outlook.token_mapped'] },
  { family: 'operator', actions: [] },
];

const KNOWN = new Set(ACTION_GROUPS.flatMap((g) => [...g.actions, `${g.family}.*`]));

/** The filter's action parameter, if it is one the screen offers (anything else: no filter). */
export function parseActionFilter(value: string | undefined): string | undefined {
  return value && KNOWN.has(value) ? value : undefined;
}

function has(lang: Lang, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(allTexts(lang), key);
}

/** "ログイン", "Signed in"; families and unknown actions as described above. */
export function eventLabel(t: T, lang: Lang, action: string): string {
  const key = `activityLogs.events.${action}`;
  if (has(lang, key)) return t(key);
  const refused = /^login\.refused\.(.+)$/.exec(action);
  if (refused) {
    const code = refused[1]!;
    return t('activityLogs.family.loginRefused', { reason: has(lang, `errors.${code}`) ? t(`errors.${code}`) : code });
  }
  if (action.startsWith('login.challenge.')) return t('activityLogs.family.loginChallenge');
  if (action.startsWith('operator.')) return t('activityLogs.family.operator', { action: action.slice('operator.'.length) });
  return action;
}

/** The family's name in the filter ("ログイン関連（すべて）"). */
export function familyLabel(t: T, family: string): string {
  return t(`activityLogs.families.${family.replace('.', '_')}`);
}

// The filter's options as HTML, by language and chosen action: the same ninety elements on every
// request of the screen, made once each (a tenth of the screen's rendering). `chosen` is '' or an
// action the filter offers (parseActionFilter), so there are at most 2 × 80 of them.
const optionsHtml = new Map<string, string>();

/** The action filter's <option>s and <optgroup>s, `chosen` selected. */
export function actionOptionsHtml(t: T, lang: Lang, chosen: string): string {
  const id = `${lang}:${chosen}`;
  let html = optionsHtml.get(id);
  if (html === undefined) {
    const option = (value: string, label: string) => `<option value="${escapeHtml(value)}"${value === chosen ? ' selected=""' : ''}>${escapeHtml(label)}</option>`;
    html =
      option('', t('activityLogs.anyAction')) +
      ACTION_GROUPS.map((g) => {
        const family = familyLabel(t, g.family);
        return `<optgroup label="${escapeHtml(family)}">${option(`${g.family}.*`, family)}${g.actions.map((a) => option(a, t(`activityLogs.events.${a}`))).join('')}</optgroup>`;
      }).join('');
    optionsHtml.set(id, html);
  }
  return html;
}
