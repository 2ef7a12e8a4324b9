// X-Request-Id: echo a sane incoming value, else make one; every response carries it.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
}
