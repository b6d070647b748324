// The tenant-settings forms' own checks (spec 02 section 5), as the islands apply them.
import { describe, expect, it } from 'vitest';
import { contactErrors } from '../../src/islands/billing/ContactDetails';
import { ipText } from '../../src/islands/tenant-settings/IpRestriction';
import { readCount } from '../../src/islands/billing/MoreServicesForm';
import { readSubdomain } from '../../src/islands/tenant-settings/TenantUrlSettings';
import { getT } from '../../src/shared/i18n';

describe('custom subdomain', () => {
  it('empty removes it; 2-63 characters, letters or digits at both ends, "_" or "-" between; lower-cased', () => {
    expect(readSubdomain('  ')).toEqual({ ok: true, label: null });
    expect(readSubdomain('Acme-Corp')).toEqual({ ok: true, label: 'acme-corp' });
    expect(readSubdomain('a_b')).toEqual({ ok: true, label: 'a_b' });
    expect(readSubdomain('x'.repeat(63))).toMatchObject({ ok: true });
    const t = getT('en');
    const error = (v: string) => {
      const r = readSubdomain(v);
      return r.ok ? null : t(r.error);
    };
    expect(error('a')).toBe('Specify 2 or more characters');
    for (const bad of ['-ab', 'ab-', 'a.b', 'ab cd', 'x'.repeat(64), 'ä1']) expect(error(bad), bad).toBe('Enter a valid subdomain');
  });
});

describe('IP entries', () => {
  it('prefix 32 is shown without a suffix', () => {
    expect(ipText({ ip_address: '133.242.10.20', prefix_length: 32 })).toBe('133.242.10.20');
    expect(ipText({ ip_address: '133.242.20.0', prefix_length: 24 })).toBe('133.242.20.0/24');
  });
});

describe('get more services counts', () => {
  it('whole numbers from 0 to 100,000', () => {
    expect(readCount('0')).toBe(0);
    expect(readCount(' 15 ')).toBe(15);
    expect(readCount('100000')).toBe(100_000);
    for (const bad of ['', '-1', '1.5', '1e3', '100001', 'abc']) expect(readCount(bad), bad).toBeNull();
  });
});

describe('contact dialog', () => {
  const ok = { companyName: 'Acme', name: '経理 太郎', department: '', position: '', email: 'billing@acme.test', contactNumber: '03', postalCode: '100', address: '東京' };

  it('requires the fields non-blank after trimming, a valid email; department and job title are optional', () => {
    expect(contactErrors(ok)).toEqual({});
    expect(contactErrors({ ...ok, companyName: '   ', address: '', email: 'nope' })).toEqual({
      companyName: 'validation.required',
      address: 'validation.required',
      email: 'admin.contacts.emailInvalid',
    });
    expect(contactErrors({ ...ok, email: ' ' })).toEqual({ email: 'validation.required' });
  });
});
