// Which addresses a webhook may be sent to (D15): IANA's special-purpose address registries for IPv4 and IPv6, as an
// explicit table, rather than ipaddr.js's ranges, which leave out some (the IPv4-compatible ::/96 passed as public).
import ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const table = (entries: string[]): Cidr[] => entries.map((cidr) => ipaddr.parseCIDR(cidr));

/** IPv4 blocks that are not globally reachable (IANA IPv4 Special-Purpose Address Registry), with multicast. */
const IPV4_NOT_PUBLIC = table([
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGNAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the limited broadcast 255.255.255.255
]);

/** IPv6 blocks inside the global unicast 2000::/3 that are not globally reachable (IANA IPv6 Special-Purpose Registry). */
const IPV6_NOT_PUBLIC = table([
  '2001::/23', // IETF protocol assignments (TEREDO, benchmarking 2001:2::/48, ORCHID…)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: an IPv4 address behind it
  '3fff::/20', // documentation
]);

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits: the IPv4 address decides. */
const IPV6_CARRYING_IPV4 = table(['::ffff:0:0/96', '64:ff9b::/96']);
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, blocks: Cidr[]) => blocks.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));

/** True for an address the public internet routes to: globally reachable unicast, by IANA's registries. */
export function isPublicAddress(text: string): boolean {
  if (!ipaddr.isValid(text)) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return !within(address, IPV4_NOT_PUBLIC);
  const v6 = address as ipaddr.IPv6;
  if (within(v6, IPV6_CARRYING_IPV4)) return isPublicAddress(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  // Everything outside 2000::/3 is special: ::/96 (IPv4-compatible, ::1 and ::), fc00::/7, fe80::/10, ff00::/8…
  return v6.match(GLOBAL_UNICAST) && !within(v6, IPV6_NOT_PUBLIC);
}
