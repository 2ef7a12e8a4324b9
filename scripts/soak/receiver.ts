// The soak's webhook receiver: counts deliveries per webhook-id (bodies are not kept over a long run), and can be
// stopped and started again on the same port, as a venue's server that goes away for a while.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class Receiver {
  /** Deliveries per event id. */
  readonly seen = new Map<string, number>();
  requests = 0;
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      req.resume().on('end', () => {
        const id = String(req.headers['webhook-id'] ?? '');
        this.requests++;
        this.seen.set(id, (this.seen.get(id) ?? 0) + 1);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port: deliveries meanwhile fail to connect and are retried on the worker's schedule. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
