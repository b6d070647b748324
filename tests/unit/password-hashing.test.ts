import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { loadArgon2Native } from '../../src/adapters/argon2-native';
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
