// The SMS part of the account's two-factor setup (spec 01 sections 4, 5 and 8): a country code
// (default Japan, +81) and a national number, checked in the browser as a mobile number with
// libphonenumber-js's mobile-only metadata (the smallest that tells mobile numbers apart), sent as
// E.164 to POST twofa/sms/otp. After sending, Send stays disabled (until the number changes) and a
// resend link appears with a 60-second countdown; a 429 counts down from the response's reset time.
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/mobile';
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { api, type ApiResult } from '../shared/api';
import { formatCountdown } from '../shared/dates';
import { getT, type Lang } from '../shared/i18n';
import { smsContactSchema } from '../shared/schemas';
import { BUTTON_PRIMARY, FIELD, LINK_BUTTON, Notice, RESEND_COOLDOWN_SECONDS, retryAfterSeconds, useCountdown } from './twofa-parts';

export interface TwofaSmsProps {
  lang: Lang;
  basePath: string;
  /** A code went out: the code entry can show. */
  onSent: () => void;
  /** A failure the step cannot handle (spec 01 section 8: back to my-account with an error). */
  onFail: (r: ApiResult) => void;
}

/** Default country code 81 (spec 01 section 9). */
export const DEFAULT_REGION: CountryCode = 'JP';

/** "+819012345678" when `national` is a valid mobile number of `region`, else null. */
export function mobileE164(region: CountryCode, national: string): string | null {
  const n = parsePhoneNumberFromString(national, region);
  // With mobile-only metadata a number is valid only when it can be a mobile number.
  if (!n || !n.isValid()) return null;
  return smsContactSchema.safeParse({ contact: n.number }).success ? n.number : null;
}

function regionOptions(lang: Lang): { region: CountryCode; label: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([lang], { type: 'region' });
  } catch {
    names = null;
  }
  return getCountries()
    .map((region) => ({ region, label: `${names?.of(region) ?? region} (+${getCountryCallingCode(region)})` }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));
}

export default function TwofaSms({ lang, basePath, onSent, onFail }: TwofaSmsProps) {
  const t = getT(lang);
  const options = useMemo(() => regionOptions(lang), [lang]);
  const [region, setRegion] = useState<CountryCode>(DEFAULT_REGION);
  const [national, setNational] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'status' | 'warning'; text: string } | null>(null);
  /** The number the last code went to; Send stays disabled while it is the one in the fields. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sendWait, setSendWait] = useCountdown();
  const [cooldown, setCooldown] = useCountdown();
  const inputRef = useRef<HTMLInputElement>(null);

  const rateLimited = (r: ApiResult<{ duration?: number }>, start: (seconds: number) => void) => {
    setNotice({ kind: 'warning', text: t('errors.too-many-attempts') });
    start(retryAfterSeconds(r));
  };

  const onSend = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || sentTo !== null || sendWait > 0) return;
    if (!national.trim()) {
      setFieldError(t('validation.required'));
      inputRef.current?.focus();
      return;
    }
    const contact = mobileE164(region, national);
    if (!contact) {
      setFieldError(t('validation.invalidMobile'));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setNotice(null);
    setBusy(true);
    const r = await api<{ duration?: number; errors?: { contact?: string[] } }>(basePath, 'POST', 'twofa/sms/otp', { contact });
    setBusy(false);
    if (r.ok) {
      setSentTo(contact);
      setCooldown(RESEND_COOLDOWN_SECONDS);
      setNotice({ kind: 'status', text: t('twofa.sentTo', { number: parsePhoneNumberFromString(contact)?.formatInternational() ?? contact }) });
      onSent();
      return;
    }
    if (r.status === 429) return rateLimited(r, setSendWait);
    if (r.status === 422 && r.data.errors?.contact?.length) {
      setFieldError(r.data.errors.contact[0]!);
      inputRef.current?.focus();
      return;
    }
    onFail(r);
  };

  const onResend = async () => {
    if (busy || cooldown > 0) return;
    setNotice(null);
    setBusy(true);
    const r = await api<{ duration?: number }>(basePath, 'POST', 'twofa/sms/otp/resend');
    setBusy(false);
    if (r.ok) {
      setCooldown(RESEND_COOLDOWN_SECONDS);
      setNotice({ kind: 'status', text: t('twofa.resent') });
      return;
    }
    if (r.status === 429) return rateLimited(r, setCooldown);
    onFail(r);
  };

  const changed = () => {
    setFieldError(null);
    setSentTo(null);
  };

  return (
    <div>
      <p className="mt-0">{t('twofa.smsIntro')}</p>
      <Notice notice={notice} testId="twofa-sms-notice" />
      <form noValidate onSubmit={onSend} className="flex flex-col gap-4">
        <div className="flex flex-wrap gap-4">
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor="twofa-country" className="font-medium">
              {t('twofa.countryCode')}
            </label>
            <select
              id="twofa-country"
              value={region}
              onChange={(e) => {
                setRegion(e.target.value as CountryCode);
                changed();
              }}
              className={`${FIELD} bg-white`}
            >
              {options.map((o) => (
                <option key={o.region} value={o.region}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor="twofa-mobile" className="font-medium">
              {t('twofa.mobileNumber')}
            </label>
            <input
              ref={inputRef}
              id="twofa-mobile"
              type="tel"
              autoComplete="tel-national"
              value={national}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? 'twofa-mobile-error' : 'twofa-mobile-hint'}
              onChange={(e) => {
                setNational(e.target.value);
                changed();
              }}
              className={FIELD}
            />
            {fieldError ? (
              <p id="twofa-mobile-error" className="m-0 mt-1 text-sm text-red-800">
                {fieldError}
              </p>
            ) : (
              <p id="twofa-mobile-hint" className="m-0 mt-1 text-sm text-slate-700">
                {t('twofa.mobileHint')}
              </p>
            )}
          </div>
        </div>
        <div>
          <button type="submit" disabled={busy || sentTo !== null || sendWait > 0} className={BUTTON_PRIMARY}>
            {t('twofa.send')}
          </button>
        </div>
      </form>
      {sendWait > 0 && (
        <p className="m-0 mt-2 text-sm text-slate-700" data-testid="send-countdown">
          {t('twofa.sendIn', { time: formatCountdown(sendWait) })}
        </p>
      )}
      {sentTo !== null && (
        <div className="mt-4 flex flex-wrap items-center gap-4">
          <button type="button" onClick={() => void onResend()} disabled={busy || cooldown > 0} className={LINK_BUTTON}>
            {t('twofa.resend')}
          </button>
          {cooldown > 0 && (
            <span className="text-sm text-slate-700" data-testid="resend-countdown">
              {t('twofa.resendIn', { time: formatCountdown(cooldown) })}
            </span>
          )}
        </div>
      )}
    </div>
  );
}
