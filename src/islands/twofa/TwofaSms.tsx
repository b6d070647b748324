// The SMS part of the account's two-factor setup (spec 01 sections 4, 5 and 8): a country code
// (default Japan, +81) and a national number, checked in the browser as a mobile number with
// libphonenumber-js's mobile-only metadata (the smallest that tells mobile numbers apart), sent as
// E.164 to POST twofa/sms/otp. After sending, Send stays disabled (until the number changes) and a
// resend link appears with a 60-second countdown; a 429 counts down from the response's reset time.
// The forced setup at login uses it too, with its own calls (decision 0046).
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/mobile';
import { useMemo, useState, type FormEvent } from 'react';
import { api, type ApiResult } from '../../shared/api';
import { RESEND_COOLDOWN_SECONDS } from '../../shared/twofa/code-entry';
import { formatCountdown } from '../../shared/dates';
import { getT, type Lang } from '../../shared/i18n';
import { smsContactSchema } from '../../shared/schemas';
import { buttonClass } from '../kit/Button';
import { ResendRow, StepMessages, useCodeEntry } from '../kit/code-step';
import Field from '../kit/Field';
import { FIELD } from './twofa-parts';

export interface TwofaSmsProps {
  lang: Lang;
  basePath: string;
  /** A code went out: the code entry can show. */
  onSent: () => void;
  /** A failure the step cannot handle (spec 01 section 8: back to my-account with an error). */
  onFail: (r: ApiResult) => void;
  /** The send and resend calls: the account's unless given (the setup at login has its own). */
  calls?: { send: string; resend: string };
  /** Focus the number field when the step appears (the account's step 3), or not (a radio choice at login). */
  focusOnMount?: boolean;
}

const ACCOUNT_CALLS = { send: 'twofa/sms/otp', resend: 'twofa/sms/otp/resend' };

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

export default function TwofaSms({ lang, basePath, onSent, onFail, calls = ACCOUNT_CALLS, focusOnMount = true }: TwofaSmsProps) {
  const t = getT(lang);
  const options = useMemo(() => regionOptions(lang), [lang]);
  const [region, setRegion] = useState<CountryCode>(DEFAULT_REGION);
  // The number's field is the step's "code": one send at a time, its wait, the resend cooldown.
  const entry = useCodeEntry(t, { focusOnMount });
  const national = entry.code;
  /** The number the last code went to; Send stays disabled while it is the one in the fields. */
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSend = async (e: FormEvent) => {
    e.preventDefault();
    if (sentTo !== null) return;
    if (!national.trim()) return entry.invalid(t('validation.required'));
    const contact = mobileE164(region, national);
    if (!contact) return entry.invalid(t('validation.invalidMobile'));
    const r = await entry.attempt(() => api<{ errors?: { contact?: string[] } }>(basePath, 'POST', calls.send, { contact }));
    if (!r) return;
    entry.idle();
    if (r.ok) {
      setSentTo(contact);
      entry.setCooldown(RESEND_COOLDOWN_SECONDS);
      entry.setMessage({ kind: 'success', text: t('twofa.sentTo', { number: parsePhoneNumberFromString(contact)?.formatInternational() ?? contact }) });
      onSent();
      return;
    }
    if (r.status === 422 && r.data.errors?.contact?.length) return entry.invalid(r.data.errors.contact[0]!);
    onFail(r);
  };

  const onResend = () => void entry.resend(() => api(basePath, 'POST', calls.resend), t('twofa.resent'), onFail);

  const changed = () => setSentTo(null);

  return (
    <div>
      <p className="mt-0">{t('twofa.smsIntro')}</p>
      <StepMessages entry={entry} testId="twofa-sms" lockedText={() => t('errors.too-many-attempts')} />
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
            <Field
              id="twofa-mobile"
              label={t('twofa.mobileNumber')}
              hint={t('twofa.mobileHint')}
              error={entry.fieldError}
              value={national}
              onChange={(v) => {
                entry.setCode(v);
                changed();
              }}
              inputRef={entry.inputRef}
              type="tel"
              autoComplete="tel-national"
            />
          </div>
        </div>
        <div>
          {/* Locked: the countdown under the form says until when (decision 0047). */}
          <button type="submit" disabled={entry.busy || sentTo !== null || entry.lockedFor > 0} aria-describedby={!entry.busy && entry.lockedFor > 0 ? 'send-countdown' : undefined} className={buttonClass('primary')}>
            {t('twofa.send')}
          </button>
        </div>
      </form>
      {entry.lockedFor > 0 && (
        <p id="send-countdown" className="m-0 mt-2 text-sm text-slate-700" data-testid="send-countdown">
          {t('twofa.sendIn', { time: formatCountdown(entry.lockedFor) })}
        </p>
      )}
      {sentTo !== null && <ResendRow t={t} ns="twofa" entry={entry} onResend={onResend} />}
    </div>
  );
}
