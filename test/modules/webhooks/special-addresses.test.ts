// Which addresses a webhook may reach, against IANA's special-purpose registries for IPv4 and IPv6: one row per block,
// the IPv4-compatible ::/96 spellings a review found passing included.
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/modules/webhooks/special-addresses.js';

const NOT_PUBLIC: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared (CGNAT)'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private, its last address'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.10', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::7f00:1', 'IPv4-compatible 127.0.0.1 (::127.0.0.1)'],
  ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
  ['::a00:1', 'IPv4-compatible 10.0.0.1'],
  ['::2', 'IPv4-compatible 0.0.0.2'],
  ['::5db8:d822', 'IPv4-compatible even of a public IPv4 address (deprecated)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b:1::1', 'local-use IPv4/IPv6 translation'],
  ['100::1', 'discard-only'],
  ['2001::1', 'TEREDO'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['2002:7f00:1::1', '6to4'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'SRv6 SIDs'],
  ['fc00::1', 'unique local'],
  ['fd00::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
  ['not an address', 'not an address'],
];

const PUBLIC: [string, string][] = [
  ['93.184.216.34', 'a public IPv4 address'],
  ['8.8.8.8', 'a public IPv4 address'],
  ['172.32.0.1', 'just above 172.16.0.0/12'],
  ['100.128.0.1', 'just above 100.64.0.0/10'],
  ['::ffff:93.184.216.34', 'IPv4-mapped public'],
  ['64:ff9b::5db8:d822', 'NAT64 of a public IPv4 address'],
  ['2606:2800:220:1:248:1893:25c8:1946', 'a public IPv6 address'],
  ['2a00:1450:4001:82b::200e', 'a public IPv6 address'],
];

describe('public addresses for webhooks (IANA special-purpose registries)', () => {
  it.each(NOT_PUBLIC)('%s is not public (%s)', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(PUBLIC)('%s is public (%s)', (address) => expect(isPublicAddress(address)).toBe(true));
});
