// Island props go into the page as JSON inside <script>: nothing in them may end the element or
// start markup, and the browser must read back exactly what the server had.
import { describe, expect, it } from 'vitest';
import { scriptJson } from '../../src/ui/Island';

describe('scriptJson', () => {
  it('escapes what could end the script element or break it, and parses back to the same value', () => {
    const value = { name: '</script><img src=x onerror=alert(1)>', amp: 'a&b', seps: 'x\u2028y\u2029z', ja: '営業部 <総務>' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain('\\u003c/script\\u003e');
    expect(json).toContain('\\u2028');
    expect(JSON.parse(json)).toEqual(value);
  });
});
