// Turns every failure, ours or the framework's, into the contract's error envelope (D5).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { ApiError } from '../shared/errors.js';
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
  return undefined;
}

export function sendApiError(reply: FastifyReply, error: ApiError, docBaseUrl: string): FastifyReply {
  reply.code(error.status).headers(error.headers);
  return reply.send({ error: error.toBody(docBaseUrl), request_id: reply.request.id });
}

export function installErrorHandling(app: FastifyInstance, docBaseUrl: string): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof ApiError ? error : fromFramework(error);
    if (known) return sendApiError(reply, known, docBaseUrl);
    if (error.statusCode === 503) return sendApiError(reply, new ApiError('service_unavailable'), docBaseUrl);
    request.log.error({ err: error }, 'unhandled error');
    return sendApiError(reply, new ApiError('internal_error'), docBaseUrl);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length) {
      reply.header('allow', allowed.join(', '));
      return sendApiError(
        reply,
        new ApiError('method_not_allowed', { message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}.` }),
        docBaseUrl,
      );
    }
    return sendApiError(reply, new ApiError('route_not_found', { message: `No route ${request.method} ${path}.` }), docBaseUrl);
  });
}
