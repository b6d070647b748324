// Rules of the two-factor screens that run without a browser: the wait a 429 asks for, the
// mobile-number check of the SMS step, the notices my-account may show, where a failed account
// call goes, and where the password check goes on to.
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../src/shared/api';
import { accountNotice, loginWithNotice } from '../../src/shared/notices';
import { failedSetupUrl, retryAfterSeconds } from '../../src/islands/twofa/twofa-parts';
import { mobileE164 } from '../../src/islands/twofa/TwofaSms';
import { verifyPasswordTarget } from '../../src/routes/twofa/account-pages';

const answer = (status: number, headers: Record<string, string>, data: Record<string, unknown> = {}): ApiResult<{ duration?: number }> => ({
  ok: status < 400,
  status,
  data,
  headers: new Headers(headers),
});

describe('retryAfterSeconds', () => {
  const now = 1_800_000_000_000;
  it('counts down to the reset time of X-RateLimit-Reset first', () => {
    expect(retryAfterSeconds(answer(429, { 'X-RateLimit-Reset': String(now / 1000 + 42), 'Retry-After': '60' }, { duration: 60 }), now)).toBe(42);
  });
  it('but never longer than Retry-After (the reset is rounded up to a whole second)', () => {
    expect(retryAfterSeconds(answer(429, { 'X-RateLimit-Reset': String(Math.ceil(now / 1000 + 0.4) + 900), 'Retry-After': '900' }), now + 100)).toBe(900);
    expect(retryAfterSeconds(answer(429, { 'X-RateLimit-Reset': String(now / 1000 + 30) }), now)).toBe(30);
  });
  it('then Retry-After, then the body duration, then a minute', () => {
    expect(retryAfterSeconds(answer(429, { 'X-RateLimit-Reset': String(now / 1000 - 5), 'Retry-After': '17' }), now)).toBe(17);
    expect(retryAfterSeconds(answer(429, {}, { duration: 9 }), now)).toBe(9);
    expect(retryAfterSeconds(answer(429, { 'Retry-After': 'soon' }), now)).toBe(60);
  });
});

describe('mobileE164 (SMS step, mobile-only metadata)', () => {
  it('turns a Japanese mobile number into E.164, with or without separators', () => {
    expect(mobileE164('JP', '090-1234-5678')).toBe('+819012345678');
    expect(mobileE164('JP', '90 1234 5678')).toBe('+819012345678');
  });
  it('refuses landlines, short numbers and letters', () => {
    expect(mobileE164('JP', '03-1234-5678')).toBeNull();
    expect(mobileE164('JP', '090-1234')).toBeNull();
    expect(mobileE164('JP', 'call me')).toBeNull();
  });
  it('follows the chosen country code', () => {
    expect(mobileE164('GB', '07400 123456')).toBe('+447400123456');
    expect(mobileE164('GB', '020 1234 5678')).toBeNull();
  });
});

describe('the two-factor result notices of my-account', () => {
  it('knows its names and nothing else (not even Object.prototype keys)', () => {
    expect(accountNotice('twofa-enabled')).toBe('twofa-enabled');
    expect(accountNotice('twofa-disabled')).toBe('twofa-disabled');
    expect(accountNotice('twofa-error')).toBe('twofa-error');
    for (const v of ['toString', '__proto__', 'constructor', '<script>', '', null, undefined]) expect(accountNotice(v)).toBeNull();
  });
});

describe('failedSetupUrl', () => {
  it('an expired password check goes back to it; anything else to my-account with an error', () => {
    expect(failedSetupUrl('/accounts', answer(403, {}, { message: 'password-verification-required' }))).toBe('/accounts/verify-password?redirect=twofa');
    expect(failedSetupUrl('/accounts', answer(403, {}, { message: 'forbidden' }))).toBe('/accounts/my-account?notice=twofa-error');
    expect(failedSetupUrl('/accounts', answer(409, {}, { message: 'no-pending-setup' }))).toBe('/accounts/my-account?notice=twofa-error');
  });
});

describe('verifyPasswordTarget', () => {
  const go = (raw: string | undefined) => verifyPasswordTarget(raw, '/accounts', ['/meishi/', '/scheduler/']);
  it('twofa by default', () => {
    expect(go(undefined)).toEqual({ redirect: 'twofa', next: '/accounts/twofa' });
    expect(go('twofa')).toEqual({ redirect: 'twofa', next: '/accounts/twofa' });
  });
  it('a same-portal path as given', () => {
    expect(go('/accounts/my-account')).toEqual({ redirect: '/accounts/my-account', next: '/accounts/my-account' });
  });
  it('never another origin', () => {
    for (const raw of ['https://evil.example/', '//evil.example/', '/\\evil.example', 'javascript:alert(1)', 'admin']) {
      expect(go(raw)).toEqual({ redirect: 'twofa', next: '/accounts/twofa' });
    }
  });
});

describe('loginWithNotice', () => {
  it('keeps the screen query and adds the notice once', () => {
    expect(loginWithNotice('/accounts', '?continue=%2Faccounts%2Fmy-account', 'twofa-error')).toBe('/accounts/login?continue=%2Faccounts%2Fmy-account&notice=twofa-error');
    expect(loginWithNotice('/accounts', '', 'twofa-error')).toBe('/accounts/login?notice=twofa-error');
    expect(loginWithNotice('/accounts', '?notice=password-set', 'twofa-error')).toBe('/accounts/login?notice=twofa-error');
  });
});
