import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { createHashPool, loadArgon2Native } from '../../src/adapters/argon2-native';
import { loadArgon2Node } from '../../src/adapters/argon2-node';
import { createPasswordHasher } from '../../src/domain/security/password-hashing';

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

describe('the hashing threads (Node)', () => {
  it('answers every hash of a burst larger than the pool, each its own, and closes', async () => {
    const pool = createHashPool(2);
    try {
      const native = createPasswordHasher(async () => pool.hash);
      const passwords = ['a-Password-1', 'b-Password-2', 'c-Password-3', 'd-Password-4', 'e-Password-5'];
      const hashes = await Promise.all(passwords.map((p) => native.hash(p)));
      expect(new Set(hashes).size).toBe(5);
      expect(await Promise.all(hashes.map((h, i) => hasher.verify(passwords[i]!, h)))).toEqual(passwords.map(() => ({ ok: true, needsRehash: false })));
      expect((await native.verify('a-Password-1', hashes[1]!)).ok).toBe(false);
    } finally {
      await pool.close();
    }
    await expect(pool.hash({ password: new Uint8Array(1), salt: new Uint8Array(16), parallelism: 1, passes: 2, memorySize: 19456, tagLength: 32 })).rejects.toThrow(/closed/);
  });

  it.runIf(process.platform === 'linux')('runs its threads at the lowest priority, so the event loop keeps a core when it needs one', async () => {
    const pool = createHashPool(2);
    try {
      expect(await pool.priorities()).toEqual([19, 19]);
    } finally {
      await pool.close();
    }
  });

  it('refuses a bad input with an error instead of dying', async () => {
    const pool = createHashPool(1);
    try {
      await expect(pool.hash({ password: new Uint8Array(1), salt: new Uint8Array(2), parallelism: 1, passes: 2, memorySize: 19456, tagLength: 32 })).rejects.toThrow(/argon2id/);
      // The thread lives on and answers the next hash.
      const native = createPasswordHasher(async () => pool.hash);
      expect((await hasher.verify('x-Password-9', await native.hash('x-Password-9'))).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
