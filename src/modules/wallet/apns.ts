// Pushes to Apple's push service (APNs) that tell a device one of its passes changed (D23): one long-lived HTTP/2
// session, authenticated with the Pass Type ID certificate, reopened when it closes; payload `{}`, topic the pass type.
import http2 from 'node:http2';
import { readFileSync } from 'node:fs';

export interface ApnsSettings {
  url: string;
  passTypeId: string;
  certFile: string;
  keyFile: string;
  keyPassphrase?: string;
  /** A CA to trust besides the system's (a local stand-in for APNs). */
  caFile?: string;
  timeoutMs: number;
}

/** What became of one push: sent, the token no longer the device's, to be tried again, or never to be. */
export type PushOutcome = { kind: 'sent' } | { kind: 'unregister'; error: string } | { kind: 'retry'; error: string } | { kind: 'give_up'; error: string };

/** APNs' answer, judged: 410 and 400 BadDeviceToken unregister; 403 (our certificate) and other 4xx are not retried. */
export function judgePush(status: number, reason: string | undefined): PushOutcome {
  const error = `APNs ${status}${reason ? ` ${reason}` : ''}`;
  if (status === 200) return { kind: 'sent' };
  if (status === 410 || (status === 400 && reason === 'BadDeviceToken')) return { kind: 'unregister', error };
  if (status === 429 || status >= 500) return { kind: 'retry', error };
  return { kind: 'give_up', error };
}

export class ApnsClient {
  private session: http2.ClientHttp2Session | undefined;
  private readonly tls: http2.SecureClientSessionOptions;

  constructor(private readonly settings: ApnsSettings) {
    // Read once: the files do not change under a running process.
    this.tls = {
      cert: readFileSync(settings.certFile),
      key: readFileSync(settings.keyFile),
      passphrase: settings.keyPassphrase,
      ...(settings.caFile ? { ca: readFileSync(settings.caFile) } : {}),
    };
  }

  /** Tells the device holding `pushToken` that a pass of ours changed. */
  async push(pushToken: string): Promise<PushOutcome> {
    try {
      const { status, body } = await this.post(`/3/device/${encodeURIComponent(pushToken)}`);
      let reason: string | undefined;
      try {
        reason = (JSON.parse(body) as { reason?: string }).reason;
      } catch {
        reason = undefined;
      }
      return judgePush(status, reason);
    } catch (err) {
      return { kind: 'retry', error: `APNs unreachable: ${(err as Error).message}` };
    }
  }

  close(): void {
    this.session?.close();
    this.session = undefined;
  }

  private open(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(this.settings.url, this.tls);
    const forget = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    // An idle session does not keep the process alive at shutdown.
    session.unref();
    this.session = session;
    return session;
  }

  private post(path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const session = this.open();
      const req = session.request({
        ':method': 'POST',
        ':path': path,
        'apns-topic': this.settings.passTypeId,
        'content-type': 'application/json',
      });
      let status = 0;
      let timedOut = false;
      const chunks: Buffer[] = [];
      // No answer in time: the connection itself may be dead (a peer gone without a word), so it is replaced.
      req.setTimeout(this.settings.timeoutMs, () => {
        timedOut = true;
        req.close(http2.constants.NGHTTP2_CANCEL);
        if (this.session === session) this.session = undefined;
        session.destroy();
      });
      req.on('response', (headers) => (status = Number(headers[':status'])));
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('error', reject);
      req.on('close', () => (status && !timedOut ? resolve({ status, body: Buffer.concat(chunks).toString('utf8') }) : reject(new Error(timedOut ? 'timed out' : 'no answer'))));
      req.end('{}');
    });
  }
}
