import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Returns the configured secret, or — for the embedded database only — one generated once into
 * DATA_DIR so that restarts keep hashing the same way. With PostgreSQL the secret must be configured:
 * several processes must agree on it.
 */
export function resolveSecret(
  name: string,
  configured: string | undefined,
  dataDir: string,
  embedded: boolean,
): string {
  if (configured) return configured;
  if (!embedded) throw new Error(`${name} must be set when DATABASE_URL is set (all processes must share it).`);
  const file = path.resolve(dataDir, 'secrets', `${name.toLowerCase()}.key`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

export function createHasher(secret: string): (value: string) => string {
  return (value) => createHmac('sha256', secret).update(value).digest('base64url').slice(0, 32);
}

/** Compares a secret someone sent with ours in constant time, whatever the lengths: both are hashed to 32 bytes first. */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
