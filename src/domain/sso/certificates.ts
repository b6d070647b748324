// The IdP's signing certificates (decision 0042): a tenant may trust several at once, so an IdP
// can roll its key over without a morning on which nobody signs in. Stored as PEM blocks one after
// another in saml_settings.idp_x509cert; parsed with @peculiar/asn1-x509 on every runtime.
import { createHash } from 'node:crypto';
import { parseCertificate, type ParsedCertificate } from './sp';

/** At most this many certificates at once: rollover needs two, a spare makes three. */
export const MAX_CERTIFICATES = 5;
/** Days before a certificate's end at which the tenant's admins are warned. */
export const EXPIRY_THRESHOLDS_DAYS = [30, 7, 1] as const;
const DAY_MS = 24 * 60 * 60_000;

export interface TrustedCertificate extends ParsedCertificate {
  /** SHA-256 of the DER, hex: what the admin compares with the IdP's screen. */
  fingerprint: string;
}

function withFingerprint(c: ParsedCertificate): TrustedCertificate {
  const der = Buffer.from(c.pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64');
  return { ...c, fingerprint: createHash('sha256').update(der).digest('hex') };
}

/**
 * Every certificate of a text holding one or more PEM blocks (or one bare base64 body). Null when
 * any block is not a certificate, or there are none or too many: an admin's paste is all or nothing.
 * Duplicates are kept once.
 */
export function parseCertificates(input: string): TrustedCertificate[] | null {
  const blocks = input.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? (input.trim() ? [input] : []);
  // Text around the blocks other than whitespace means a paste went wrong.
  if (blocks.length > 0 && input.includes('-----BEGIN') && input.replace(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g, '').trim() !== '') return null;
  const out: TrustedCertificate[] = [];
  for (const block of blocks) {
    const parsed = parseCertificate(block);
    if (!parsed) return null;
    const c = withFingerprint(parsed);
    if (!out.some((o) => o.fingerprint === c.fingerprint)) out.push(c);
  }
  if (out.length === 0 || out.length > MAX_CERTIFICATES) return null;
  return out;
}

/** The stored form: the PEM blocks one after another. */
export function joinCertificates(certs: Pick<ParsedCertificate, 'pem'>[]): string {
  return certs.map((c) => c.pem).join('');
}

/** The stored certificates (never null for a stored setting; [] if the stored text is damaged). */
export function storedCertificates(stored: string): TrustedCertificate[] {
  return parseCertificates(stored) ?? [];
}

/** When the last certificate ends: until then some trusted certificate still verifies. */
export function trustEndsAt(certs: Pick<ParsedCertificate, 'notAfter'>[]): number | null {
  return certs.length ? Math.max(...certs.map((c) => c.notAfter)) : null;
}

/** Whether two sets hold the same certificates, in any order. */
export function sameCertificates(a: TrustedCertificate[], b: TrustedCertificate[]): boolean {
  const fa = new Set(a.map((c) => c.fingerprint));
  return a.length === b.length && b.every((c) => fa.has(c.fingerprint));
}

/** The smallest threshold a certificate has crossed (30, 7, 1), or null when none (or expired). */
export function crossedThreshold(notAfter: number, now: number): number | null {
  const left = notAfter - now;
  if (left <= 0) return null;
  let crossed: number | null = null;
  for (const days of EXPIRY_THRESHOLDS_DAYS) if (left <= days * DAY_MS) crossed = days;
  return crossed;
}

/** Whole days left before notAfter (0 on the last day). */
export function daysLeft(notAfter: number, now: number): number {
  return Math.max(0, Math.floor((notAfter - now) / DAY_MS));
}
