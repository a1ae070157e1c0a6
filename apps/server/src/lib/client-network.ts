import { isIPv4, isIPv6 } from 'node:net';

// The client a per-IP limit counts (docs/decisions/016-security-hardening.md, "IPv6 clients by their
// /64"). An IPv4 address is one client. An IPv6 client is its /64: a home, an office or a phone is
// given a whole /64 (at least) and picks addresses in it at will, so counting each address alone
// would give one client 2^64 budgets — 40 sign-in tries from one /64 where one address gets 5. Every
// per-IP limit keys its client with `rateLimitClient`; what is stored is still a keyed hash of it.

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.split('%', 1)[0] ?? '';
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    if (!isIPv4(dotted)) return null;
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(halves[0] ?? '');
  const right = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const zeros = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (zeros < 0) return null;
  const groups = [...left, ...Array<number>(zeros).fill(0), ...right];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

/**
 * The client a per-IP limit counts for `ip` (Fastify's `request.ip`): an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address as its /64 (`2001:db8:1:2::/64`).
 */
export function rateLimitClient(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
