// Turns a host name into the addresses a connection would use; injectable so tests control DNS.
import { lookup } from 'node:dns/promises';

export type HostResolver = (hostname: string) => Promise<string[]>;

export const dnsResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
