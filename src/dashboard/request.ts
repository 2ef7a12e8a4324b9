// What every dashboard route needs from its request: the signed-in owner's session, and an id check.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../shared/errors.js';
import type { OwnerSession } from './service.js';

export function sessionOf(req: FastifyRequest): OwnerSession {
  if (!req.dashboardSession) throw new ApiError('session_required');
  return req.dashboardSession;
}

export const isId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
