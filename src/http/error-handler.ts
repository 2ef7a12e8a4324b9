// Turns every failure, ours or the framework's, into the contract's error envelope (D5).
import { maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { isDatabaseUnavailable } from '../db/database.js';
import { ApiError } from '../shared/errors.js';
import { badSegment, newRequestId, type RouteTable } from './input.js';
import { messageOf, paramOf } from './validation.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Framework errors by Fastify's code, as ApiErrors. */
function fromFramework(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_content_type');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('request_body_too_large');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('parameter_invalid', { message: 'The JSON body is empty; send an object or no Content-Type.' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('parameter_invalid', { message: 'The request body is not valid JSON.' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('parameter_invalid', { message: 'Content-Length does not match the body.' });
  }
  if (error.validation) {
    const first = error.validation[0] as ErrorObject | undefined;
    const part = error.validationContext ?? 'body';
    if (!first) return new ApiError('parameter_invalid');
    return new ApiError('parameter_invalid', { param: paramOf(first), message: messageOf(first, part) });
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new ApiError('parameter_invalid', { message: 'The request body is not valid JSON.' });
  }
  // Static files (the API reference's assets): `..` is refused by the file server as 403; to the caller it is
  // simply not there.
  if (error.name === 'ForbiddenError' || error.statusCode === 404) return new ApiError('route_not_found');
  // Any other refusal a plugin raises keeps its meaning in our envelope; only real failures become 500.
  switch (error.statusCode) {
    case 400:
      return new ApiError('parameter_invalid', { message: 'The request is malformed.' });
    case 413:
      return new ApiError('request_body_too_large');
    case 415:
      return new ApiError('unsupported_content_type');
  }
  return undefined;
}

/**
 * What the router refuses before any route runs: a path whose percent-encoding is not UTF-8 (%ff, %c0%af, %zz)
 * and a path parameter over its length limit. Both are 400 parameter_invalid naming the path parameter when a
 * route has one at that segment (the contract has no code for 414, and a too-long id is an invalid field).
 */
export function routerRefusal(error: FastifyError, method: string, url: string, routes: RouteTable, maxParamLength: number): ApiError {
  const path = url.split('?')[0] ?? '/';
  const paramAt = (index: number) => (index < 0 ? undefined : routes.paramAt(method, path, index));
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    const param = paramAt(badSegment(path, 'length', maxParamLength));
    return new ApiError('parameter_invalid', {
      param,
      message: `${param ?? 'A path segment'} is longer than ${maxParamLength} characters; no identifier here is that long.`,
    });
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    const param = paramAt(badSegment(path, 'encoding', maxParamLength));
    return new ApiError('parameter_invalid', { param, message: `${param ?? 'The path'} is not valid percent-encoded UTF-8.` });
  }
  return new ApiError('internal_error');
}

/**
 * Errors Node's HTTP parser raises before a request exists (431 over-large headers, 400 malformed request line,
 * 408 a request that never completed): no route or reply is there, so a minimal envelope is written to the socket
 * and the connection closed. All are parameter_invalid (400): the contract has no codes for 408 or 431.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Socket, docBaseUrl: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection cannot be followed by another one.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const message =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? `The request headers are larger than this server accepts (${maxHeaderSize} bytes in all).`
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request did not arrive completely in time.'
        : `The request is not valid HTTP/1.1 (${error.code ?? 'parse error'}).`;
  const requestId = newRequestId();
  const body = JSON.stringify({ error: new ApiError('parameter_invalid', { message }).toBody(docBaseUrl), request_id: requestId });
  socket.end(
    'HTTP/1.1 400 Bad Request\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
    () => socket.destroy(),
  );
}

export function sendApiError(reply: FastifyReply, error: ApiError, docBaseUrl: string): FastifyReply {
  reply.code(error.status).headers(error.headers);
  return reply.send({ error: error.toBody(docBaseUrl), request_id: reply.request.id });
}

export function installErrorHandling(app: FastifyInstance, docBaseUrl: string): void {
  /** 405 with Allow for a path that takes other methods, else 404. */
  const noRoute = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    // A route of this very method that answers "not found" (a missing static file) is not a wrong method.
    if (allowed.length && !allowed.includes(request.method as (typeof METHODS)[number])) {
      reply.header('allow', allowed.join(', '));
      return sendApiError(
        reply,
        new ApiError('method_not_allowed', { message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}.` }),
        docBaseUrl,
      );
    }
    return sendApiError(reply, new ApiError('route_not_found', { message: `No route ${request.method} ${path}.` }), docBaseUrl);
  };

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // A method Fastify reads a body for (QUERY) sent without one fails before routing: no route takes it either way.
    if (error.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' && app.findRoute({ method: request.method as (typeof METHODS)[number], url: request.url.split('?')[0] ?? '/' }) === null) {
      return noRoute(request, reply);
    }
    const known = error instanceof ApiError ? error : fromFramework(error);
    if (known) return sendApiError(reply, known, docBaseUrl);
    if (error.statusCode === 503) return sendApiError(reply, new ApiError('service_unavailable'), docBaseUrl);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: { message: error.message, code: error.code } }, 'database unavailable');
      return sendApiError(reply, new ApiError('service_unavailable', { headers: { 'retry-after': '1' } }), docBaseUrl);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendApiError(reply, new ApiError('internal_error'), docBaseUrl);
  });

  app.setNotFoundHandler(noRoute);
}
