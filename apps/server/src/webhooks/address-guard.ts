import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../config.ts';

// The address guard (docs/product/webhooks.md#the-address-guard). A webhook is a request the server
// makes to an address an operator typed: without a guard, an endpoint could point the server at
// itself, at the database, at a neighbour on the private network or at the cloud's metadata service
// (169.254.169.254), and the delivery log would report what answered. So an endpoint is checked when
// it is registered and again before every delivery, on the addresses its name resolves to at that
// moment: every address must be public (a name with one private address among public ones is
// refused), and the delivery connects to the address that was checked — the name is not resolved a
// second time, so a DNS answer that changes between the check and the connection (DNS rebinding)
// cannot move it. IPv4-mapped and translated IPv6 forms are read as the IPv4 address they carry.
// `WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true` turns the address check off (tests and development use a
// receiver on this machine); `https` is required in production whatever the setting.

export interface AddressPolicy {
  /** Only https URLs (production). */
  requireHttps: boolean;
  /** Skip the address check (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES). */
  allowPrivate: boolean;
}

export function addressPolicy(config: Pick<Config, 'NODE_ENV' | 'WEBHOOKS_ALLOW_PRIVATE_ADDRESSES'>): AddressPolicy {
  return { requireHttps: config.NODE_ENV === 'production', allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES };
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address (A and AAAA). Tests pass their own. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Longer than a healthy resolver ever takes; the operating system's own time-out is far longer. */
const LOOKUP_TIMEOUT_MS = 5_000;

export const systemResolver: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};

type Range = [prefix: number[], bits: number, label: string];

function ipv4Bytes(address: string): number[] | null {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return null;
  return parts.map(Number);
}

function ipv6Bytes(input: string): number[] | null {
  const address = input.replace(/%.*$/, '');
  if (isIP(address) !== 6) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (text: string): number[] | null => {
    if (text === '') return [];
    const out: number[] = [];
    for (const group of text.split(':')) {
      if (group.includes('.')) {
        const v4 = ipv4Bytes(group);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else out.push(parseInt(group, 16));
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const words = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const v4 = (text: string) => ipv4Bytes(text)!;
const v6 = (text: string) => ipv6Bytes(text)!;

/** IPv4 ranges that are not the public internet (IANA special-purpose registry). */
const IPV4_REFUSED: Range[] = [
  [v4('0.0.0.0'), 8, 'this network'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'shared (carrier-grade NAT)'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local (cloud metadata)'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'protocol assignments'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, '6to4 relay'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

/** IPv6 ranges that are not the public internet; the ones that carry an IPv4 address are read below. */
const IPV6_REFUSED: Range[] = [
  // ::, ::1 and the deprecated IPv4-compatible addresses.
  [v6('::'), 96, 'loopback or unspecified'],
  [v6('64:ff9b:1::'), 48, 'local translation (NAT64)'],
  [v6('100::'), 64, 'discard'],
  [v6('2001::'), 23, 'protocol assignments (Teredo and others)'],
  [v6('2001:db8::'), 32, 'documentation'],
  [v6('3fff::'), 20, 'documentation'],
  [v6('fc00::'), 7, 'unique local'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'site-local'],
  [v6('ff00::'), 8, 'multicast'],
];

/** IPv6 prefixes whose address carries an IPv4 one, and where: IPv4-mapped, NAT64, 6to4. */
const IPV6_CARRYING_IPV4: [prefix: number[], bits: number, at: number][] = [
  [v6('::ffff:0:0'), 96, 12],
  [v6('64:ff9b::'), 96, 12],
  [v6('2002::'), 16, 2],
];

function inRange(bytes: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    const index = bit / 8;
    if ((bytes[index]! & mask) !== (prefix[index]! & mask)) return false;
  }
  return true;
}

function refusedIpv4(bytes: number[]): string | null {
  return IPV4_REFUSED.find(([prefix, bits]) => inRange(bytes, prefix, bits))?.[2] ?? null;
}

/**
 * Why `address` (an IP address, as a resolver answers it) is refused as a webhook's destination, or
 * null when it is a public address. Text that is no IP address is refused.
 */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const four = ipv4Bytes(bare);
  if (four) return refusedIpv4(four);
  const six = ipv6Bytes(bare);
  if (!six) return 'not an IP address';
  for (const [prefix, bits, at] of IPV6_CARRYING_IPV4) {
    if (inRange(six, prefix, bits)) {
      const carried = refusedIpv4(six.slice(at, at + 4));
      return carried === null ? null : `${carried}, in an IPv6 form`;
    }
  }
  return IPV6_REFUSED.find(([prefix, bits]) => inRange(six, prefix, bits))?.[2] ?? null;
}

export type UrlCheck =
  | { ok: true; url: URL; address: ResolvedAddress }
  | { ok: false; reason: 'url-invalid' | 'not-https' | 'dns-failed' | 'address-refused'; detail?: string };

/**
 * Checks an endpoint's URL as a delivery would use it now: its form, https when required, then the
 * addresses its host resolves to. Answers the address to connect to (the first one, checked).
 */
export async function checkWebhookUrl(
  text: string,
  policy: AddressPolicy,
  resolve: Resolver = systemResolver,
): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'url-invalid' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'url-invalid' };
  if (url.protocol !== 'https:' && policy.requireHttps) return { ok: false, reason: 'not-https' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return { ok: false, reason: 'url-invalid' };
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, reason: 'dns-failed' };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: 'dns-failed' };
  if (!policy.allowPrivate) {
    for (const { address } of addresses) {
      const refused = refusedAddress(address);
      if (refused !== null) return { ok: false, reason: 'address-refused', detail: refused };
    }
  }
  return { ok: true, url, address: addresses[0]! };
}
