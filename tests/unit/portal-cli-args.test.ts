// The CLI's argument parsing: dates, apps with seats, feature switches and limits, token lifetimes
// and rotation overlaps, and the SQL it sends through wrangler.
import { describe, expect, it } from 'vitest';
import { inlineSql, parseApps, parseFeatures, parseInstant, parseLifetimeDays, parseOverlapMinutes } from '../../scripts/portal-cli';

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

  it('reads a token lifetime in whole days from 1 to 365, 90 by default', () => {
    expect(parseLifetimeDays(undefined)).toBe(90);
    expect(parseLifetimeDays('1')).toBe(1);
    expect(parseLifetimeDays('365')).toBe(365);
    for (const bad of ['0', '366', '1.5', '-3', '90d', '', '1e2']) {
      expect(() => parseLifetimeDays(bad), bad).toThrow(/^--expires-in: expected a whole number of days from 1 to 365; got /);
    }
  });

  it('reads a rotation overlap in whole minutes from 0 to 1440, 0 by default', () => {
    expect(parseOverlapMinutes(undefined)).toBe(0);
    expect(parseOverlapMinutes('0')).toBe(0);
    expect(parseOverlapMinutes('1440')).toBe(1440);
    for (const bad of ['1441', '-1', '5m', '0.5', '']) {
      expect(() => parseOverlapMinutes(bad), bad).toThrow(/^--overlap: expected a whole number of minutes from 0 to 1440/);
    }
  });

  it('writes arguments into SQL for wrangler: strings quoted (quotes doubled), integers, NULL; a count mismatch or a non-integer throws', () => {
    expect(inlineSql('INSERT INTO t (a, b, c, d) VALUES (?, ?, ?, ?)', ["O'Brien's; DROP TABLE t; --", 'why?', 17, null])).toBe("INSERT INTO t (a, b, c, d) VALUES ('O''Brien''s; DROP TABLE t; --', 'why?', 17, NULL)");
    expect(() => inlineSql('SELECT ?, ?', [1])).toThrow(/more placeholders/);
    expect(() => inlineSql('SELECT ?', [1, 2])).toThrow(/more arguments/);
    expect(() => inlineSql('SELECT ?', [1.5])).toThrow(/not an integer/);
  });
});
