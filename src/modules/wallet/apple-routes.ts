// The Apple pass web service (D23) under /wallet/apple/v1, as Apple publishes it for Wallet on iPhones: devices
// register for a pass, ask which passes changed, fetch the latest, and send their logs. Rate limited per address.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { limitPerAddress } from '../../http/address-limit.js';
import type { App } from '../../http/context.js';
import type { PassDeps } from './apple-pass.js';
import * as passes from './pass-service.js';

type RegistrationParams = { deviceLibraryIdentifier: string; passTypeIdentifier: string; serialNumber: string };

export async function appleWalletRoutes(app: App): Promise<void> {
  const { db, config, clock } = app.deps;
  const deps = (): PassDeps => ({ settings: config.appleWallet, secrets: app.deps.secretBox, publicBaseUrl: config.publicBaseUrl });
  limitPerAddress(app, 'wallet');
  const held = (req: FastifyRequest<{ Params: { passTypeIdentifier: string; serialNumber: string } }>) =>
    passes.heldPass(db, deps(), req.params.passTypeIdentifier, req.params.serialNumber, req.headers.authorization);

  const registration = '/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber';
  app.post<{ Params: RegistrationParams; Body: { pushToken?: unknown } | undefined }>(registration, { schema: { hide: true } }, async (req, reply) => {
    const pass = await held(req);
    const created = await passes.registerDevice(db, pass, req.params.deviceLibraryIdentifier, req.body?.pushToken);
    return reply.code(created ? 201 : 200).send();
  });

  app.delete<{ Params: RegistrationParams }>(registration, { schema: { hide: true } }, async (req, reply) => {
    await passes.unregisterDevice(db, await held(req), req.params.deviceLibraryIdentifier);
    return reply.code(200).send();
  });

  app.get<{ Params: { deviceLibraryIdentifier: string; passTypeIdentifier: string }; Querystring: { passesUpdatedSince?: string } }>(
    '/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier',
    { schema: { hide: true, querystring: Type.Object({ passesUpdatedSince: Type.Optional(Type.String({ maxLength: 64 })) }) } },
    async (req, reply) => {
      const updated = await passes.updatedSerials(db, deps(), req.params.deviceLibraryIdentifier, req.params.passTypeIdentifier, req.query.passesUpdatedSince);
      return updated ? reply.send(updated) : reply.code(204).send();
    },
  );

  app.get<{ Params: { passTypeIdentifier: string; serialNumber: string } }>('/passes/:passTypeIdentifier/:serialNumber', { schema: { hide: true } }, async (req, reply) => {
    const pass = await held(req);
    const since = req.headers['if-modified-since'] ? new Date(req.headers['if-modified-since']) : undefined;
    const current = await passes.currentPass(db, deps(), pass, since && !Number.isNaN(since.getTime()) ? since : undefined, clock.now());
    if (current.unchanged) return reply.code(304).send();
    return reply.type('application/vnd.apple.pkpass').header('last-modified', current.lastModified.toUTCString()).send(current.pass);
  });

  // What a device reports when something went wrong on its side: into our log, at most a few lines, as they came.
  app.post<{ Body: { logs?: unknown } | undefined }>('/log', { schema: { hide: true } }, async (req, reply) => {
    const logs = Array.isArray(req.body?.logs) ? req.body.logs.filter((l): l is string => typeof l === 'string').slice(0, 5) : [];
    for (const line of logs) req.log.warn({ wallet_log: line.slice(0, 300) }, 'Apple Wallet device log');
    return reply.code(200).send();
  });
}
