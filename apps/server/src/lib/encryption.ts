import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Field encryption at rest (docs/product/rules-and-constants.md#security: IBAN and BIC), AES-256-GCM. Each value names the key that
// sealed it ("v1:<key id>:<iv>:<tag>:<ciphertext>", base64url parts), so keys can rotate: encrypt
// with the current key, decrypt with whichever key the value names.

const VERSION = 'v1';
const IV_BYTES = 12;

export interface FieldCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/** A 32-byte key from base64/base64url (or 64 hex characters). */
export function parseEncryptionKey(value: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('DATA_ENCRYPTION_KEY must be 32 bytes (base64 or 64 hex characters).');
  return key;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 8);
}

/** `current` encrypts; `previous` keys still decrypt values sealed before a rotation. */
export function createFieldCipher(current: Buffer, previous: Buffer[] = []): FieldCipher {
  const keys = new Map([current, ...previous].map((key) => [keyId(key), key]));
  const currentId = keyId(current);
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [
        VERSION,
        currentId,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join(':');
    },
    decrypt(sealed) {
      const [version, id, iv, tag, body] = sealed.split(':');
      const key = id === undefined ? undefined : keys.get(id);
      if (version !== VERSION || !key || iv === undefined || tag === undefined || body === undefined) {
        throw new Error(`cannot decrypt a value sealed with key "${id ?? '?'}"`);
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
