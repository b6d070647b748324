// The CLI's argument parsing: dates, apps with seats, feature switches and limits.
import { describe, expect, it } from 'vitest';
import { parseApps, parseFeatures, parseInstant } from '../../scripts/portal-cli';

describe('portal CLI arguments', () => {
  it('reads a date as midnight Japan time, passes ISO 8601 with an offset through, "none" clears', () => {
    expect(parseInstant('2026-12-31', 'trial-ends')).toBe('2026-12-31T00:00:00+09:00');
    expect(parseInstant('2026-12-31T09:30:00Z', 'x')).toBe('2026-12-31T09:30:00Z');
    expect(parseInstant('2026-12-31T09:30+09:00', 'x')).toBe('2026-12-31T09:30+09:00');
    expect(parseInstant('none', 'x')).toBeNull();
    for (const bad of ['tomorrow', '2026-12-31T09:30:00', '31/12/2026', '2026-13-45T00:00:00Z']) {
      expect(() => parseInstant(bad, 'trial-ends'), bad).toThrow(/--trial-ends: expected YYYY-MM-DD/);
    }
  });

  it('reads apps with seats, unlimited by default', () => {
    expect(parseApps(['meishi=10', 'scheduler', 'meishi_operator=unlimited'])).toEqual([
      { app: 'meishi', seats: 10 },
      { app: 'scheduler', seats: null },
      { app: 'meishi_operator', seats: null },
    ]);
    expect(() => parseApps(['calendar=3'])).toThrow(/unknown app "calendar"/);
    expect(() => parseApps(['meishi=ten'])).toThrow(/seats must be a number/);
  });

  it('reads features by short or API name; counts need numbers, switches on/off', () => {
    expect(parseFeatures([])).toBeUndefined();
    expect(parseFeatures(['sso-users=10', 'ip-restriction=on', 'kintone=off', 'featureBulkEmailMonthlyLimit=20000'])).toEqual({
      featureSsoUsersLimit: 10,
      isFeatureIpRestrictionSubscribed: true,
      isFeatureKintoneSubscribed: false,
      featureBulkEmailMonthlyLimit: 20000,
    });
    expect(() => parseFeatures(['sso-users=many'])).toThrow(/expected a number/);
    expect(() => parseFeatures(['kintone=yes'])).toThrow(/expected on or off/);
    expect(() => parseFeatures(['teleport=on'])).toThrow(/unknown feature "teleport"/);
  });
});
