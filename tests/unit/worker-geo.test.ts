// wrangler dev's placeholder request.cf ("Austin, Texas") is no location (issue 27 part 7); a real
// cf object is still read.
import { describe, expect, it } from 'vitest';
import { workerRuntime } from '../../src/adapters/runtime-worker';

// miniflare's fallbackCf (node_modules/miniflare), as `npm start` gets it with the cf.json download off.
const PLACEHOLDER = { asOrganization: '', asn: 395747, colo: 'DFW', city: 'Austin', region: 'Texas', regionCode: 'TX', postalCode: '78701', country: 'US', timezone: 'America/Chicago' };

const withCf = (cf: object) => Object.assign(new Request('http://acme.localhost/'), { cf });

describe('the Workers runtime location', () => {
  it('is unknown for the placeholder', () => {
    expect(workerRuntime.geo(withCf(PLACEHOLDER))).toBeNull();
  });
  it('is read from a real request.cf, Austin included', () => {
    expect(workerRuntime.geo(withCf({ asn: 2516, colo: 'NRT', city: 'Chiyoda', region: 'Tokyo', country: 'JP', postalCode: '100-0001' }))).toEqual({ countryCode: 'JP', country: 'Japan', city: 'Chiyoda', state: 'Tokyo' });
    expect(workerRuntime.geo(withCf({ ...PLACEHOLDER, asn: 7018, colo: 'DFW' }))).toMatchObject({ city: 'Austin', state: 'Texas' });
  });
});
