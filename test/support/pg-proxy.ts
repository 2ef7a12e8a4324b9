// A TCP proxy in front of the test database that hands each message the server sends to a hook before the next.
import net from 'node:net';

/**
 * Starts the proxy; `url` is the database's, the returned `url` goes through the proxy. Each server message is
 * passed on whole and in order, after the previous message's `afterMessage` has finished (a hook may delay the rest).
 */
export async function pgProxy(url: string, afterMessage: (type: number) => void | Promise<void>) {
  const target = new URL(url);
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    let pending = Buffer.alloc(0);
    let delivered = Promise.resolve();
    upstream.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
        const message = pending.subarray(0, 1 + pending.readInt32BE(1));
        pending = pending.subarray(message.length);
        delivered = delivered.then(async () => {
          client.write(message);
          await afterMessage(message[0]!);
        });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxied = new URL(target);
  proxied.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { url: proxied.href, close: () => server.close() };
}
