import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { FieldCipher } from './lib/encryption.ts';
import type { Mailer } from './lib/mailer.ts';
import type { AppMetrics } from './lib/metrics.ts';

/**
 * The app's services: configuration, database, mail, clock, log, metrics. Plumbing (db, lib, email, domain) names
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
  /** The app's logger; while a request is served, that request's (its lines carry the request id). */
  log: FastifyBaseLogger;
  /** Encrypts personal fields at rest (IBAN, BIC). */
  cipher: FieldCipher;
  /** What the app counts for Prometheus (lib/metrics.ts). */
  metrics: AppMetrics;
}
