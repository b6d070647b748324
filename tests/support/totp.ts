import { generate } from 'otplib';

/** The authenticator code for `secret` at the harness clock's time (+ offset in steps). */
export function totpAt(secret: string, nowMs: number, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) + stepOffset * 30 });
}

export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
