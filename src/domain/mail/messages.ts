// The portal's mail and text messages, composed in the recipient's language from the locale files
// (the one place the domain puts words together: what a person receives, in their language).
import type { Deps } from '../../deps';
import { getT, type Lang } from '../../shared/i18n';

export type MailKind = 'passwordReset' | 'passwordChanged' | 'additionalChallenge' | 'invitation' | 'verification' | 'addedToTenant' | 'ssoCertificatesChanged' | 'ssoCertificateExpiring';

export async function sendMail(
  deps: Deps,
  to: { email: string; language: Lang },
  kind: MailKind,
  vars: Record<string, string | number>,
  tenantId: number | null = null,
): Promise<void> {
  const t = getT(to.language);
  const all = { product: t('product.name'), ...vars };
  await deps.mailer.send({
    to: to.email,
    subject: t(`mail.${kind}.subject`, all),
    text: `${t(`mail.${kind}.body`, all)}\n\n--\n${t('mail.footer', all)}`,
    tenantId,
  });
}

/** The SMS that carries a one-time code, in the recipient's language. */
export function smsCodeText(to: { language: Lang }, code: string, minutes: number): string {
  const t = getT(to.language);
  return t('sms.code', { code, product: t('product.name'), minutes });
}

/** The product's name as the person reads it (an authenticator app lists the account under it). */
export function productName(to: { language: Lang }): string {
  return getT(to.language)('product.name');
}
