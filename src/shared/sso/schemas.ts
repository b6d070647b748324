// SSO settings schemas shared by the admin screen and the server (spec 02 "SAML setting").
// Messages are i18n keys.
import * as z from 'zod/mini';

/** Hosts a browser treats as this machine: an IdP there may use plain http (development). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * SAML IdP settings (spec 02 "SAML setting"): write names idpEntityId, idpSsoUrl, idpSloUrl,
 * idpCertificate. The browser carries sign-on and sign-out messages to these URLs, so they must
 * be https (plain http only on a loopback host, for a development IdP).
 */
const httpsUrl = (error: string) =>
  z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(1024, { error, abort: true }),
    z.refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname))) && !u.username && !u.password;
      } catch {
        return false;
      }
    }, { error }),
  );

/** A metadata URL: https only (the server's own fetch rules add the address checks). */
const metadataUrl = z.string({ error: 'validation.required' }).check(
  z.trim(),
  z.minLength(1, { error: 'validation.required', abort: true }),
  z.maxLength(1024, { error: 'sso.metadata.errors.https-only', abort: true }),
  z.refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' && !u.username && !u.password;
    } catch {
      return false;
    }
  }, { error: 'sso.metadata.errors.https-only' }),
);

export const samlSettingSchema = z.object({
  idpEntityId: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    z.maxLength(1024, { error: 'sso.errors.entityId' }),
    z.regex(/^\S+$/, { error: 'sso.errors.entityId' }),
  ),
  idpSsoUrl: httpsUrl('sso.errors.url'),
  idpSloUrl: z.optional(z.nullable(z.union([z.literal(''), httpsUrl('sso.errors.url')]))),
  idpCertificate: z.string({ error: 'validation.required' }).check(
    z.trim(),
    z.minLength(1, { error: 'validation.required', abort: true }),
    // Up to five certificates (rollover, decision 0042).
    z.maxLength(50_000, { error: 'sso.errors.certificate' }),
  ),
  /** Where the IdP publishes its metadata: re-read daily for certificate changes. */
  idpMetadataUrl: z.optional(z.nullable(z.union([z.literal(''), metadataUrl]))),
});

/** The metadata source the admin gives: a URL the server fetches, or the XML itself. */
export const metadataSourceSchema = z
  .object({
    url: z.optional(metadataUrl),
    xml: z.optional(z.string().check(z.trim(), z.minLength(1, { error: 'validation.required' }), z.maxLength(512 * 1024, { error: 'sso.metadata.errors.too-large' }))),
  })
  .check(z.refine((v) => Boolean(v.url) !== Boolean(v.xml), { error: 'validation.required', path: ['url'] }));
export type MetadataSourceInput = z.output<typeof metadataSourceSchema>;
export type SamlSettingInput = z.output<typeof samlSettingSchema>;

export const idpStatusSchema = z.object({ isIdpConfigured: z.boolean() });

/** An IdP signing certificate as the screen lists it (decision 0042). */
export interface CertificateView {
  fingerprint: string;
  not_before: string;
  not_after: string;
}

/** GET admin/saml-setting: the tenant's IdP values, their certificates and metadata source, and the SP's URLs. */
export interface SamlSettingView {
  is_idp_configured: 0 | 1;
  saml_setting: {
    idp_entity_id: string;
    idp_sso_url: string;
    idp_slo_url: string | null;
    idp_x509cert: string;
    /** When the last trusted certificate ends: SSO stops working then. */
    certificate_expires_at: string | null;
    certificates: CertificateView[];
    idp_metadata_url: string | null;
    metadata_checked_at: string | null;
    metadata_error: string | null;
  } | null;
  sp: { entity_id: string; acs_url: string; metadata_url: string; sls_url: string };
}

/** What the admin reviews before saving: the IdP's values read from its metadata. */
export interface MetadataPreview {
  idp_entity_id: string;
  idp_sso_url: string;
  idp_slo_url: string | null;
  idp_certificate: string;
  certificates: CertificateView[];
  idp_metadata_url: string | null;
}
