import { describe, expect, it } from 'vitest';
import { hostLabel, tenantOrigin } from '../../src/domain/tenants/hosts';

describe('host -> tenant label', () => {
  it('bare domain is the main domain (null)', () => {
    expect(hostLabel('localhost', 'localhost')).toBeNull();
    expect(hostLabel('portal.example.com', 'portal.example.com')).toBeNull();
  });
  it('one label under the domain is a tenant label', () => {
    expect(hostLabel('acme.localhost', 'localhost')).toBe('acme');
    expect(hostLabel('ACME.Localhost.', 'localhost')).toBe('acme');
    expect(hostLabel('globex-jp.portal.example.com', 'portal.example.com')).toBe('globex-jp');
  });
  it('nested labels, other domains and malformed labels are unknown', () => {
    expect(hostLabel('a.b.localhost', 'localhost')).toBeUndefined();
    expect(hostLabel('evil.com', 'localhost')).toBeUndefined();
    expect(hostLabel('acmelocalhost', 'localhost')).toBeUndefined();
    expect(hostLabel('-acme.localhost', 'localhost')).toBeUndefined();
    expect(hostLabel('127.0.0.1', 'localhost')).toBeUndefined();
  });
  it('tenant origin uses the custom subdomain when set and keeps the port', () => {
    expect(tenantOrigin({ subdomain: 'globex-jp', initialSubdomain: 'globex' }, 'localhost', new URL('http://localhost:8787/x'), false)).toBe('http://globex-jp.localhost:8787');
    expect(tenantOrigin({ subdomain: null, initialSubdomain: 'acme' }, 'example.com', new URL('https://example.com/'), true)).toBe('https://acme.example.com');
  });
});
