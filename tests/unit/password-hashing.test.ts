import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { concurrencyGate, loadArgon2Native } from '../../src/adapters/argon2-native';
import { loadArgon2Node } from '../../src/adapters/argon2-node';
import { createPasswordHasher } from '../../src/domain/auth/passwords';

const hasher = createPasswordHasher(loadArgon2Node);

describe('password hashing', () => {
  it('stores argon2id at OWASP parameters as a PHC string and verifies it', async () => {
    const phc = await hasher.hash('Portal-Demo-2026!');
    expect(phc).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await hasher.verify('Portal-Demo-2026!', phc)).toEqual({ ok: true, needsRehash: false });
    expect(await hasher.verify('Portal-Demo-2026?', phc)).toEqual({ ok: false, needsRehash: false });
  });

  it('salts: the same password hashes differently', async () => {
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'));
  });

  it('verifies legacy bcrypt hashes and asks for a re-hash', async () => {
    const legacy = bcrypt.hashSync('Legacy-Pass-1', 4);
    expect(await hasher.verify('Legacy-Pass-1', legacy)).toEqual({ ok: true, needsRehash: true });
    expect(await hasher.verify('wrong', legacy)).toEqual({ ok: false, needsRehash: false });
  });

  it('asks for a re-hash of a weaker argon2id hash, and refuses garbage', async () => {
    const weak = '$argon2id$v=19$m=4096,t=1,p=1$' + 'c2FsdHNhbHRzYWx0c2FsdA' + '$' + 'A'.repeat(43);
    expect((await hasher.verify('x', weak)).ok).toBe(false);
    expect(await hasher.verify('x', 'plaintext')).toEqual({ ok: false, needsRehash: false });
  });

  it('the native hasher (Node) and the WebAssembly one (Workers) make and verify the same hashes', async () => {
    const native = createPasswordHasher(loadArgon2Native);
    const fromNative = await native.hash('Portal-Demo-2026!');
    const fromWasm = await hasher.hash('Portal-Demo-2026!');
    expect(await hasher.verify('Portal-Demo-2026!', fromNative)).toEqual({ ok: true, needsRehash: false });
    expect(await native.verify('Portal-Demo-2026!', fromWasm)).toEqual({ ok: true, needsRehash: false });
    expect((await native.verify('Portal-Demo-2026?', fromWasm)).ok).toBe(false);
    // NFKC: a full-width password typed on a Japanese keyboard verifies as its half-width form.
    expect((await native.verify('Ｐｏｒｔａｌ-Demo-2026!', fromWasm)).ok).toBe(true);
  });
});

describe('the hash concurrency gate (Node)', () => {
  it('runs at most its limit of tasks at once, the others in order, and passes results and errors through', async () => {
    const gate = concurrencyGate(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (i: number) => () =>
      new Promise<number>((resolve, reject) => {
        running++;
        peak = Math.max(peak, running);
        setTimeout(() => {
          running--;
          order.push(i);
          if (i === 3) reject(new Error('boom'));
          else resolve(i * 10);
        }, 5);
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map((i) => gate(task(i))));
    expect(peak).toBe(2);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual([0, 10, 20, 'rejected', 40, 50, 60]);
    // A failed task frees its slot: all seven ran.
    expect(order).toHaveLength(7);
  });

  it('native argon2id through a gate of one still verifies hashes made in parallel', async () => {
    const native = createPasswordHasher(() => loadArgon2Native(1));
    const hashes = await Promise.all(['a-Password-1', 'b-Password-2', 'c-Password-3'].map((p) => native.hash(p)));
    expect(await Promise.all(hashes.map((h, i) => native.verify(['a-Password-1', 'b-Password-2', 'c-Password-3'][i]!, h)))).toEqual([
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
      expect.objectContaining({ ok: true }),
    ]);
  });
});
