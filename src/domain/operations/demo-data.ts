// The demo data (src/db/seed.ts) is written with the rules' own password hashing and secret
// encryption, handed to it from here: the database layer does not import the domain.
import type { PasswordHasher } from '../../deps';
import type { SeedTools } from '../../db/seed';
import { encryptSecret } from '../security/secrets';

export function demoSeedTools(passwords: PasswordHasher, dataKey: string): SeedTools {
  return { passwords, encryptSecret: (plain) => encryptSecret(dataKey, plain) };
}
