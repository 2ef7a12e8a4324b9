// The errors the client throws: the API's envelope as a VenueLoyaltyError, and a connection that never answered.
import type { ErrorCode } from './types.js';

/** A refusal or failure the API answered with (after any retries), carrying the envelope's fields. */
export class VenueLoyaltyError extends Error {
  override name = 'VenueLoyaltyError';
  /** HTTP status; 0 when no answer arrived (VenueLoyaltyConnectionError). */
  readonly status: number;
  /** Stable code to branch on, for example `balance_conflict`; `unexpected_response` when the body was not the envelope. */
  readonly code: ErrorCode | 'unexpected_response' | 'connection_error';
  /** Error type of the envelope (`invalid_request_error`, `rate_limit_error`, …). */
  readonly type: string | undefined;
  /** The request field the error concerns, when there is one. */
  readonly param: string | undefined;
  /** The answer's request id (envelope `request_id`, or the `X-Request-Id` header): quote it when asking for help. */
  readonly requestId: string | undefined;
  /** The answer's headers, for example `Retry-After`; empty without an answer. */
  readonly headers: Headers;

  constructor(fields: {
    status: number;
    code: VenueLoyaltyError['code'];
    message: string;
    type?: string | undefined;
    param?: string | undefined;
    requestId?: string | undefined;
    headers?: Headers;
    cause?: unknown;
  }) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.type = fields.type;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.headers = fields.headers ?? new Headers();
  }

  /** From an answer that was not a success; `body` is its parsed JSON or its text. */
  static fromResponse(response: Response, body: unknown): VenueLoyaltyError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const envelope = isEnvelope(body) ? body : undefined;
    if (!envelope) {
      return new VenueLoyaltyError({
        status: response.status,
        code: 'unexpected_response',
        message: `HTTP ${response.status} without the API's error envelope${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
        requestId,
        headers: response.headers,
      });
    }
    const { error } = envelope;
    return new VenueLoyaltyError({
      status: response.status,
      code: error.code as ErrorCode,
      message: error.message,
      type: error.type,
      param: error.param,
      requestId: envelope.request_id ?? requestId,
      headers: response.headers,
    });
  }
}

/** No answer arrived (refused connection, reset, DNS, timeout) after every retry. */
export class VenueLoyaltyConnectionError extends VenueLoyaltyError {
  override name = 'VenueLoyaltyConnectionError';
  constructor(request: Request, cause: unknown) {
    super({
      status: 0,
      code: 'connection_error',
      message: `${request.method} ${request.url} got no answer: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
}

interface Envelope {
  error: { type?: string; code: string; message: string; param?: string };
  request_id?: string;
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && typeof (error as { message?: unknown }).message === 'string';
}
