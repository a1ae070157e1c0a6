import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { FieldCipher } from './lib/encryption.ts';
import type { Mailer } from './lib/mailer.ts';

/**
 * The app's services: configuration, database, mail, clock. Plumbing (db, lib, email, domain) names
 * what it needs from here, never from context.ts, which adds the sign-in library: that is a feature
 * whose own imports reach the plumbing, so going through it would close a cycle (ADR 008).
 */
export interface AppServices {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Keyed hash of an IP address (or any personal identifier): raw values are never stored. */
  hashIdentifier: (value: string) => string;
  /** The time source; tests move it. */
  now: () => Date;
  log: FastifyBaseLogger;
  /** Encrypts personal fields at rest (IBAN, BIC). */
  cipher: FieldCipher;
}
