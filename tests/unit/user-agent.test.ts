import { describe, expect, it } from 'vitest';
import { parseAgent } from '../../src/domain/sign-in/user-agent';

describe('user agent parsing for session devices', () => {
  it('reads device, os and browser', () => {
    const a = parseAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1');
    expect(a.device).toMatch(/Apple iPhone/);
    expect(a.os).toBe('iOS 17.2');
    expect(a.browser).toBe('Mobile Safari 17');
    expect(a.isNextaMeishiApp).toBe(false);
  });
  it('desktop and the meishi app', () => {
    expect(parseAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36').device).toBe('desktop');
    expect(parseAgent('NextaMeishi/5.1 (Android 14)').isNextaMeishiApp).toBe(true);
    expect(parseAgent(null).browser).toBeNull();
  });
  it('keeps the last headers parsed: the same answer, which no caller can change', () => {
    const chrome = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const first = parseAgent(chrome);
    expect(parseAgent(chrome)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Hundreds of other headers push it out; parsed again, it reads the same.
    for (let i = 0; i < 300; i++) parseAgent(`Agent/${i}`);
    const again = parseAgent(chrome);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    // A header longer than any browser's is parsed each time and not kept.
    const long = `${chrome} ${'x'.repeat(600)}`;
    expect(parseAgent(long).browser).toBe('Chrome 131');
    expect(parseAgent(long)).not.toBe(parseAgent(long));
  });
});
