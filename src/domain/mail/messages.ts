// The portal's mail, composed in the recipient's language from the locale files.
import type { Deps } from '../../deps';
import { getT, type Lang } from '../../shared/i18n';

export type MailKind = 'passwordReset' | 'passwordChanged' | 'additionalChallenge' | 'invitation' | 'verification' | 'addedToTenant';

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
