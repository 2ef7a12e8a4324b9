// A real webhook receiver on loopback that records every request (and every TCP connection) it gets.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  requests: Received[];
  connections(): number;
  /** How to answer the next requests; default 200. */
  respond(handler: (req: Received, res: ServerResponse) => void): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let connections = 0;
  let handler: (req: Received, res: ServerResponse) => void = (_req, res) => res.writeHead(200).end("ok");
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const received = { headers: req.headers, body, at: Date.now() };
      requests.push(received);
      handler(received, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    connections: () => connections,
    respond(next) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
