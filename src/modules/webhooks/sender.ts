// Sends one signed webhook (Standard Webhooks) and reports what happened; connects only to checked public addresses.
import { Webhook } from 'standardwebhooks';
import type { Dispatcher } from 'undici';
import ipaddr from 'ipaddr.js';
import type { LookupFunction } from 'node:net';
import { undici } from '../../shared/on-first-use.js';
import type { SecretBox, Sealed } from '../../shared/secret-box.js';
import { isPublicAddress } from './special-addresses.js';
import type { WebhookUrlPolicy } from './url-guard.js';

export interface SignedMessage {
  id: string;
  timestamp: Date;
  body: string;
}

export interface SendResult {
  statusCode: number;
  error: string | null;
  durationMs: number;
  retryAfterMs: number | null;
  /**
   * Not sent: this process's SECRET_ENCRYPTION_KEY cannot open the endpoint's secret (another process sealed it
   * with a key this one lacks). A configuration problem of ours, not a failure of the endpoint.
   */
  secretUnopened: boolean;
}

const RESPONSE_BYTES_READ = 1024;

export class BlockedAddressError extends Error {
  code = 'EBLOCKED';
}

/**
 * A DNS look-up for connections that refuses a host if any of its addresses is not public, and hands the
 * socket exactly the addresses it checked, so a host cannot pass the check and then resolve elsewhere.
 */
function guardedLookup(policy: WebhookUrlPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    policy.resolve(hostname).then(
      (addresses) => {
        const blocked = addresses.find((a) => !isPublicAddress(a));
        if (blocked || addresses.length === 0) {
          callback(new BlockedAddressError(`${hostname} resolves to ${blocked ?? 'nothing'}, which is not a public address`));
          return;
        }
        const entries = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
        if (options.all) callback(null, entries);
        else callback(null, entries[0]!.address, entries[0]!.family);
      },
      (err: Error) => callback(err),
    );
  }) as LookupFunction;
}

function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function readSome(body: Dispatcher.ResponseData['body']): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += Buffer.from(chunk).toString('utf8');
    if (text.length >= RESPONSE_BYTES_READ) break;
  }
  body.destroy();
  return text.slice(0, RESPONSE_BYTES_READ);
}

function describeFailure(err: unknown, timeoutMs: number): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'EBLOCKED') return `Refused to connect: ${e.message}.`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || e.message?.includes('aborted')) {
    return `No answer within ${timeoutMs} ms.`;
  }
  return `Could not connect: ${code ?? e.message ?? 'unknown error'}.`;
}

/** Whose an endpoint is: a venue's, or (venue null) its chain's. */
export interface EndpointOwner {
  chain_id: string;
  venue_id: string | null;
  id: string;
}

/**
 * What an endpoint's sealed secret is bound to, so that a sealed value copied to another row does not open there:
 * its venue, or its chain when it has none. The venue, not the chain, for a venue's endpoint: secrets sealed before
 * chains existed keep opening, and so do they when their venue joins another chain.
 */
export const secretContext = (owner: EndpointOwner) => `webhook_endpoint:${owner.venue_id ?? owner.chain_id}:${owner.id}`;

/** An endpoint's signing secret as stored. */
export function endpointSecret(row: EndpointOwner & { secret: string; secret_key_id: string | null }): Sealed {
  return { text: row.secret, keyId: row.secret_key_id, context: secretContext(row) };
}

export class WebhookSender {
  private agent: Dispatcher | undefined;

  constructor(
    private readonly policy: WebhookUrlPolicy,
    private readonly timeoutMs: number,
    private readonly secrets: SecretBox,
  ) {}

  /** The connection pool, made by the first send: an API process that never sends one does not load undici. */
  private dispatcher(): Dispatcher {
    const { policy, timeoutMs } = this;
    return (this.agent ??= new (undici().Agent)({
      connect: policy.allowPrivate ? { timeout: timeoutMs } : { timeout: timeoutMs, lookup: guardedLookup(policy) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }));
  }

  /** Sends the message signed with the endpoint's secret, opened here and only for the signature. */
  async send(url: string, secret: Sealed, message: SignedMessage): Promise<SendResult> {
    const started = performance.now();
    const done = (statusCode: number, error: string | null, retryAfter: number | null = null, secretUnopened = false): SendResult => ({
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
      retryAfterMs: retryAfter,
      secretUnopened,
    });
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.policy.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
      return done(0, `Refused to connect: ${host} is not a public address.`);
    }
    let signature: string;
    try {
      signature = new Webhook(this.secrets.open(secret)).sign(message.id, message.timestamp, message.body);
    } catch (err) {
      // The box's message names the key id (a hash) or the failed check, never the secret.
      return done(0, `Not sent: the signing secret cannot be opened with this server's SECRET_ENCRYPTION_KEY (${(err as Error).message}).`, null, true);
    }
    try {
      const res = await undici().request(url, {
        method: 'POST',
        dispatcher: this.dispatcher(),
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'VenueLoyalty-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: message.body,
      });
      const text = await readSome(res.body);
      const status = res.statusCode;
      if (status >= 200 && status < 300) return done(status, null);
      const retryAfter = status === 429 || status === 503 ? retryAfterMs(res.headers['retry-after'], Date.now()) : null;
      if (status >= 300 && status < 400) {
        return done(status, `HTTP ${status}: redirects are not followed${res.headers.location ? ` (to ${res.headers.location})` : ''}.`);
      }
      return done(status, `HTTP ${status}${text ? `: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`, retryAfter);
    } catch (err) {
      return done(0, describeFailure(err, this.timeoutMs));
    }
  }

  async close(): Promise<void> {
    await this.agent?.close();
  }
}
