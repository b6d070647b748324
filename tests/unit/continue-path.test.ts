import { describe, expect, it } from 'vitest';
import { safeContinuePath } from '../../src/shared/sign-in/continue-path';

const ok = (v: string) => safeContinuePath(v, '/accounts', ['/meishi/', '/scheduler/', '/operator/']);

describe('continue paths accept only same-portal relative paths', () => {
  it.each([
    ['/accounts/admin/users?x=1', '/accounts/admin/users?x=1'],
    ['/accounts/my-account', '/accounts/my-account'],
    ['/meishi/cards/1', '/meishi/cards/1'],
    ['/operator/tenant-manager', '/operator/tenant-manager'],
    ['/accounts', '/accounts'],
  ])('keeps %s', (input, expected) => expect(ok(input)).toBe(expected));

  it.each([
    'https://evil.example/accounts/',
    '//evil.example/accounts/',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/accounts/../../evil',
    '/elsewhere',
    '/accounts%2F%2Fevil.example',
    '/%2F%2Fevil.example',
    '/accounts/\u0000x',
    '/accounts/\nx',
    '',
    'accounts/my-account',
    '/' + 'a'.repeat(3000),
  ])('refuses %j', (input) => expect(ok(input)).toBeNull());

  it('normalises dot segments before checking the prefix', () => {
    expect(ok('/accounts/../meishi/x')).toBe('/meishi/x');
    expect(ok('/meishi/../evil')).toBeNull();
  });
});
