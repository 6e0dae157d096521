import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): about 20 ms a hash here, small enough for a sign-in page. */
const OPTIONS = { algorithm: 2 /* Argon2id (the package's const enum cannot be imported here) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Passwords shorter than this are refused when an account is created. */
export const MIN_PASSWORD_LENGTH = 12;

/** The PHC string (`$argon2id$v=19$…`) to store; it carries its own salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

/**
 * A hash of nothing anyone knows, verified when the account does not exist, so an unknown address takes as long to
 * refuse as a wrong password and the page cannot be used to find accounts.
 */
let decoy: Promise<string> | undefined;
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(await (decoy ??= hashPassword('decoy-password-nobody-has')), password);
  return false;
}
