// "Use a passkey instead" on the one-time-code page (decision 0039), loaded lazily by OtpForm for
// a person who has a passkey: the pending login's person's passkeys only, through the browser's
// dialog; the answer goes to OtpForm, which sends it as it sends a code (one attempt at a time,
// the same lock-out).
import { useEffect, useState } from 'react';
import type { ApiResult } from '../../shared/api';
import type { T } from '../../shared/i18n';
import type { AuthenticationResponseJSON } from '@simplewebauthn/browser';
import Button from '../kit/Button';
import { askPasskey, browserSupportsWebAuthn } from './ceremony';

export interface PasskeySecondStepProps {
  t: T;
  basePath: string;
  disabled: boolean;
  onResponse: (response: AuthenticationResponseJSON) => void;
  onRefused: (r: ApiResult) => void;
  onMessage: (text: string) => void;
}

export default function PasskeySecondStep(p: PasskeySecondStepProps) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (!supported) return null;

  const onClick = async () => {
    setBusy(true);
    const c = await askPasskey(p.basePath, 'passkeys/second-factor/options');
    setBusy(false);
    if (c.kind === 'answer') return p.onResponse(c.response);
    if (c.kind === 'refused') return p.onRefused(c.r);
    p.onMessage(p.t(c.reason === 'unsupported' ? 'passkeys.signIn.unsupported' : 'passkeys.signIn.cancelled'));
  };

  return (
    <Button variant="secondary" block disabled={busy || p.disabled} onClick={() => void onClick()} data-testid="passkey-second-step">
      {p.t('passkeys.secondStep.button')}
    </Button>
  );
}
