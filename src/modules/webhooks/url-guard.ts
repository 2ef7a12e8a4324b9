// SSRF guard (D15): a webhook URL must be HTTPS and its host must resolve only to public unicast addresses.
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../shared/errors.js';
import type { HostResolver } from '../../shared/host-resolver.js';
import { isPublicAddress } from './special-addresses.js';

export interface WebhookUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and private targets, for local development and tests. */
  allowPrivate: boolean;
  resolve: HostResolver;
}

const refuse = (message: string) => new ApiError('parameter_invalid', { param: 'url', message });
/** Said with every refusal a developer testing on their own machine meets: how the operator allows it (its name only). */
const LOCAL_TESTING = ' To test with a receiver on your machine or network, the service must run with WEBHOOK_ALLOW_PRIVATE_URLS=true (development only).';
const refuseLocal = (message: string) => refuse(message + LOCAL_TESTING);

/** Checks a webhook URL and returns it normalised with the addresses it resolved to. */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): Promise<{ url: string; addresses: string[] }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('url must be an absolute URL such as https://example.com/webhooks.');
  }
  const schemes = policy.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw (url.protocol === 'http:' ? refuseLocal : refuse)('url must use https.');
  if (url.username || url.password) throw refuse('url must not contain a user name or password.');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (policy.allowPrivate) return { url: url.href, addresses: [] };
  if (host === 'localhost' || host.endsWith('.localhost')) throw refuseLocal('url must point to a public host, not localhost.');

  let addresses: string[];
  if (ipaddr.isValid(host)) {
    addresses = [host];
  } else {
    try {
      addresses = await policy.resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw refuse(`The host ${host} of url could not be resolved.`);
  }
  const blocked = addresses.find((a) => !isPublicAddress(a));
  if (blocked) {
    const what = blocked === host ? host : `${host} resolves to ${blocked}, which`;
    throw refuseLocal(`url must point to a public address; ${what} is not one (loopback, private, link-local…).`);
  }
  return { url: url.href, addresses };
}
