// Password hashing policy: argon2id at OWASP's recommended parameters (m=19 MiB, t=2, p=1),
// stored as PHC strings so a hash made on one runtime verifies on the other. Legacy bcrypt
// hashes (imported accounts) verify and are re-hashed on the next successful login.
// https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#argon2id
import type { PasswordHasher } from '../../deps';
import bcrypt from 'bcryptjs';
import { randomBytes } from 'node:crypto';
import { safeEqualBytes } from './tokens';

/**
 * Raw argon2id (version 0x13): the runtime adapter provides it (WebAssembly on Workers, a native
 * module on the thread pool on Node). The PHC strings are made here, so hashes verify anywhere.
 */
export type Argon2idFn = (p: {
  password: Uint8Array;
  salt: Uint8Array;
  parallelism: number;
  passes: number;
  memorySize: number;
  tagLength: number;
}) => Uint8Array | Promise<Uint8Array>;

export const ARGON2_PARAMS = { memorySize: 19456, passes: 2, parallelism: 1, tagLength: 32 } as const;

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64').replace(/=+$/, '');
const unb64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));
const utf8 = (s: string) => new TextEncoder().encode(s.normalize('NFKC'));

export function createPasswordHasher(loadArgon2: () => Promise<Argon2idFn>): PasswordHasher {
  let argon: Promise<Argon2idFn> | undefined;
  const get = () => (argon ??= loadArgon2());

  return {
    async hash(password) {
      const salt = new Uint8Array(randomBytes(16));
      const out = await (await get())({ password: utf8(password), salt, ...ARGON2_PARAMS });
      const p = ARGON2_PARAMS;
      return `$argon2id$v=19$m=${p.memorySize},t=${p.passes},p=${p.parallelism}$${b64(salt)}$${b64(out)}`;
    },
    async verify(password, stored) {
      if (/^\$2[aby]\$\d\d\$/.test(stored)) {
        const ok = await bcrypt.compare(password, stored);
        return { ok, needsRehash: ok };
      }
      const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
      if (!m) return { ok: false, needsRehash: false };
      const [memorySize, passes, parallelism] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const expected = unb64(m[5]!);
      const actual = await (await get())({
        password: utf8(password),
        salt: unb64(m[4]!),
        memorySize,
        passes,
        parallelism,
        tagLength: expected.length,
      });
      const ok = safeEqualBytes(actual, expected);
      const weaker =
        memorySize < ARGON2_PARAMS.memorySize || passes < ARGON2_PARAMS.passes || expected.length < 32;
      return { ok, needsRehash: ok && weaker };
    },
  };
}
