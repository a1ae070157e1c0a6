import { describe, expect, it } from 'vitest';
import { rateLimitClient } from './client-network.ts';

describe('rateLimitClient', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(rateLimitClient('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address as its /64, however it is written', () => {
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:DB8:1:2:a:b:c:d',
      '2001:db8:1:2::1%eth0',
      '2001:db8:1:2::192.0.2.1',
    ])
      expect({ ip, client: rateLimitClient(ip) }).toEqual({ ip, client: '2001:db8:1:2::/64' });
    expect(rateLimitClient('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitClient('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitClient('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(rateLimitClient('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitClient('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('leaves what is not an address as it is', () => {
    expect(rateLimitClient('')).toBe('');
    expect(rateLimitClient('not an address')).toBe('not an address');
  });
});
