// The payout's id as export files carry it: PayPal's customer id allows 30 characters and SEPA's
// EndToEndId 35 of a restricted set, while a uuid has 36. The uuid's 128 bits in base 36 take 25
// letters and digits, fit both, and lead back to the payout.

const REFERENCE_LENGTH = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "0b9e…-…" → "5F3K…" (25 characters, upper-case letters and digits). */
export function transferReference(payoutId: string): string {
  if (!UUID.test(payoutId)) throw new Error(`not a payout id: ${payoutId}`);
  return BigInt(`0x${payoutId.replace(/-/g, '')}`)
    .toString(36)
    .toUpperCase()
    .padStart(REFERENCE_LENGTH, '0');
}

/** The payout id a reference names, or null when it is not one (e.g. a reference typed by hand). */
export function payoutIdFromTransferReference(reference: string): string | null {
  const value = reference.trim().toLowerCase();
  if (!/^[0-9a-z]{1,25}$/.test(value)) return null;
  let number = 0n;
  for (const char of value) number = number * 36n + BigInt(Number.parseInt(char, 36));
  if (number >= 1n << 128n) return null;
  const hex = number.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
