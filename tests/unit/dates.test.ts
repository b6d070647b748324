// Dates as spec 01 section 9 shows them ("yyyy/M/d (E) HH:mm:ss"), and the resend countdown.
import { describe, expect, it } from 'vitest';
import { formatCountdown, formatDateTime } from '../../src/shared/dates';

describe('formatDateTime', () => {
  it('writes yyyy/M/d (E) HH:mm:ss in the reader’s language, in Tokyo time by default', () => {
    // 2026-04-27 00:05:03 UTC is Monday 09:05:03 in Tokyo.
    expect(formatDateTime('2026-04-27T00:05:03Z', 'ja')).toBe('2026/4/27 (月) 09:05:03');
    expect(formatDateTime('2026-04-27T00:05:03Z', 'en')).toBe('2026/4/27 (Mon) 09:05:03');
  });

  it('follows the time zone it is given, across a date line, with a 24-hour clock', () => {
    expect(formatDateTime('2026-12-31T15:00:00Z', 'ja')).toBe('2027/1/1 (金) 00:00:00');
    expect(formatDateTime('2026-12-31T15:00:00Z', 'en', 'UTC')).toBe('2026/12/31 (Thu) 15:00:00');
    expect(formatDateTime(Date.UTC(2026, 0, 4, 23, 59, 59), 'en', 'America/New_York')).toBe('2026/1/4 (Sun) 18:59:59');
  });

  it('answers the same instant alike in each language and zone after it was kept, and sub-second instants by their second', () => {
    const at = Date.UTC(2026, 3, 27, 0, 5, 3, 250);
    for (let i = 0; i < 3; i++) {
      expect(formatDateTime(at, 'ja')).toBe('2026/4/27 (月) 09:05:03');
      expect(formatDateTime(at, 'en')).toBe('2026/4/27 (Mon) 09:05:03');
      expect(formatDateTime(at, 'en', 'UTC')).toBe('2026/4/27 (Mon) 00:05:03');
    }
    expect(formatDateTime(at + 700, 'ja')).toBe('2026/4/27 (月) 09:05:03');
    expect(formatDateTime(at + 750, 'ja')).toBe('2026/4/27 (月) 09:05:04');
    // Before 1970 the second is still the one shown.
    expect(formatDateTime(Date.UTC(1969, 11, 31, 14, 59, 59, 500), 'ja')).toBe('1969/12/31 (水) 23:59:59');
  });

  it('shows nothing for a value that is not a date', () => {
    expect(formatDateTime('not a date', 'ja')).toBe('');
  });
});

describe('formatCountdown', () => {
  it('is mm:ss', () => {
    expect(formatCountdown(60)).toBe('01:00');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(5)).toBe('00:05');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});
