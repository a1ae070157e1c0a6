import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, refusedAddress } from './address-guard.ts';

// The address guard's ranges (docs/product/webhooks.md#the-address-guard): what is not the public
// internet is refused, in every spelling a resolver or a URL may give it.

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['100.127.255.254', 'shared (carrier-grade NAT)'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'this network'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['::1', 'loopback or unspecified'],
    ['::', 'loopback or unspecified'],
    ['fd00::1', 'unique local'],
    ['fc12:3456::1', 'unique local'],
    ['fd00:ec2::254', 'unique local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback, in an IPv6 form'],
    ['::ffff:7f00:1', 'loopback, in an IPv6 form'],
    ['::ffff:169.254.169.254', 'link-local (cloud metadata), in an IPv6 form'],
    ['::ffff:10.1.2.3', 'private, in an IPv6 form'],
    ['64:ff9b::a9fe:a9fe', 'link-local (cloud metadata), in an IPv6 form'],
    ['2002:7f00:1::1', 'loopback, in an IPv6 form'],
    ['[::1]', 'loopback or unspecified'],
    ['not-an-address', 'not an IP address'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddress(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(refusedAddress(address)).toBeNull();
    },
  );
});

describe('checkWebhookUrl', () => {
  const strict = { requireHttps: true, allowPrivate: false };
  const publicName = async () => [{ address: '93.184.215.14', family: 4 as const }];

  it('answers the checked address of a public https URL', async () => {
    const check = await checkWebhookUrl('https://hooks.example.com/in', strict, publicName);
    expect(check).toMatchObject({ ok: true, address: { address: '93.184.215.14', family: 4 } });
  });

  it('refuses http when https is required, before resolving anything', async () => {
    let resolved = false;
    const check = await checkWebhookUrl('http://hooks.example.com/in', strict, async () => {
      resolved = true;
      return [];
    });
    expect(check).toEqual({ ok: false, reason: 'not-https' });
    expect(resolved).toBe(false);
  });

  it('refuses a name with one private address among public ones', async () => {
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.0.0.7', family: 4 as const },
    ];
    expect(await checkWebhookUrl('https://hooks.example.com/in', strict, mixed)).toEqual({
      ok: false,
      reason: 'address-refused',
      detail: 'private',
    });
  });

  it('reads numeric host spellings as the URL parser does', async () => {
    for (const url of ['https://2130706433/', 'https://0x7f000001/', 'https://127.1/', 'https://[::ffff:7f00:1]/'])
      expect(await checkWebhookUrl(url, strict, publicName), url).toMatchObject({
        ok: false,
        reason: 'address-refused',
      });
  });

  it('lets any address through when private addresses are allowed, never another scheme', async () => {
    const open = { requireHttps: false, allowPrivate: true };
    expect(await checkWebhookUrl('http://127.0.0.1:4000/in', open)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('file:///etc/passwd', open)).toEqual({ ok: false, reason: 'url-invalid' });
  });

  it('answers dns-failed when the name does not resolve', async () => {
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await checkWebhookUrl('https://nowhere.example/', strict, failing)).toEqual({
      ok: false,
      reason: 'dns-failed',
    });
  });
});
