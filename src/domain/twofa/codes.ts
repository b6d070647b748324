// The codes of two-factor authentication: TOTP (otplib, RFC 6238, server time only), backup
// codes (5 x 10 digits, shown as 5+5, stored as keyed HMACs) and SMS codes (6 digits).
import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { hmacSha256 } from '../security/tokens';

export const TOTP_PERIOD_S = 30;
export const BACKUP_CODE_COUNT = 5;

/** 160-bit secret, base32 (otplib v13 refuses secrets under 16 bytes). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function otpauthUri(secret: string, account: string, issuer: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** The QR code as an SVG data URL (SVG output works on workerd; DESIGN.md section 10). */
export async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/**
 * The accepted time step for `code` at `nowMs` (one step of clock skew either way), or null.
 * Steps at or before `afterStep` are refused: a code is accepted once.
 */
export async function totpStep(secret: string, code: string, nowMs: number, afterStep: number | null): Promise<number | null> {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const r = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_S,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // A TOTP verification result carries the matched time step.
  return r.valid && 'timeStep' in r ? (r as { timeStep: number }).timeStep : null;
}

export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => String(randomInt(0, 1e10)).padStart(10, '0'));
}

/** "1234567890" -> "12345 67890" (spec 01 section 9). */
export function formatBackupCode(code: string): string {
  return `${code.slice(0, 5)} ${code.slice(5)}`;
}

/** Accepts "12345 67890", "12345-67890" or "1234567890"; null when it cannot be a code. */
export function normaliseBackupCode(input: string): string | null {
  const digits = input.replace(/[\s-]/g, '');
  return /^[0-9]{10}$/.test(digits) ? digits : null;
}

/**
 * Keyed hash of a backup code: 10 digits are too few to survive an offline guess against a
 * plain hash, so the key (DATA_ENCRYPTION_KEY) must be stolen too.
 */
export function backupCodeHash(key: string, userId: number, code: string): string {
  return hmacSha256(key, `backup-code:${userId}:${code}`).toString('hex');
}

export function newSmsCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}
