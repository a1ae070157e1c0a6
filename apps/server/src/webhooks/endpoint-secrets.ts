import type { FieldCipher } from '../lib/encryption.ts';

// An endpoint's signing secrets at rest (docs/product/webhooks.md#secret-rotation): sealed with the
// data encryption key, like IBANs (lib/encryption.ts), because whoever reads the database must not be
// able to forge our signatures. After a rotation the previous secret stays valid for the overlap and
// every delivery is signed with both; after it, with the new one alone.

export interface SealedEndpointSecrets {
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | string | null;
}

/** The secrets a delivery at `now` is signed with: the current one first, then the previous one while it lasts. */
export function signingSecrets(cipher: FieldCipher, row: SealedEndpointSecrets, now: Date): string[] {
  const secrets = [cipher.decrypt(row.secret_sealed)];
  const expires = row.previous_secret_expires_at === null ? null : new Date(row.previous_secret_expires_at);
  if (row.previous_secret_sealed !== null && expires !== null && expires.getTime() > now.getTime())
    secrets.push(cipher.decrypt(row.previous_secret_sealed));
  return secrets;
}
