import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Auth } from './features/auth/auth.ts';
import type { FieldCipher } from './lib/encryption.ts';
import type { Mailer } from './lib/mailer.ts';

/** What request handlers and jobs share: configuration, database, mail, clock. */
export interface AppContext {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Keyed hash of an IP address (or any personal identifier): raw values are never stored. */
  hashIdentifier: (value: string) => string;
  /** The time source; tests move it. */
  now: () => Date;
  log: FastifyBaseLogger;
  /** Sign-in accounts and sessions (better-auth). */
  auth: Auth;
  /** Encrypts personal fields at rest (IBAN, BIC). */
  cipher: FieldCipher;
}
