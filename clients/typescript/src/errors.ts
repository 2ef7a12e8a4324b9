// The errors the client throws: the API's envelope as a VenueLoyaltyError, and a connection that never answered.
import type { ErrorCode, ErrorObject, ErrorObjectOf } from './types.js';

interface RefusalFields {
  status: number;
  code: ErrorCode | 'unexpected_response' | 'connection_error';
  message: string;
  /** The envelope's `error`, whole; absent when the answer was not the envelope or none came. */
  error?: ErrorObject | undefined;
  requestId?: string | undefined;
  headers?: Headers;
  cause?: unknown;
}

/** What every VenueLoyaltyError carries, whatever its code. */
class Refusal extends Error {
  override name = 'VenueLoyaltyError';
  /** HTTP status; 0 when no answer arrived (VenueLoyaltyConnectionError). */
  readonly status: number;
  /** Stable code to branch on, for example `balance_conflict`; `unexpected_response` when the body was not the envelope. */
  readonly code: RefusalFields['code'];
  /** The envelope's `error` as sent, with the fields its code adds (`refundable`, `available`, `max_redeem`, `errors`…). */
  readonly error: ErrorObject | undefined;
  /** Error type of the envelope (`invalid_request_error`, `rate_limit_error`, …). */
  readonly type: string | undefined;
  /** The request field the error concerns, when there is one. */
  readonly param: string | undefined;
  /** The answer's request id (envelope `request_id`, or the `X-Request-Id` header): quote it when asking for help. */
  readonly requestId: string | undefined;
  /** The answer's headers, for example `Retry-After`; empty without an answer. */
  readonly headers: Headers;

  constructor(fields: RefusalFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.error = fields.error;
    this.type = fields.error?.type;
    this.param = fields.error?.param;
    this.requestId = fields.requestId;
    this.headers = fields.headers ?? new Headers();
  }

  /** From an answer that was not a success; `body` is its parsed JSON or its text. */
  static fromResponse(response: Response, body: unknown): VenueLoyaltyError {
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (!isEnvelope(body)) {
      return new VenueLoyaltyError({
        status: response.status,
        code: 'unexpected_response',
        message: `HTTP ${response.status} without the API's error envelope${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
        requestId,
        headers: response.headers,
      });
    }
    return new VenueLoyaltyError({
      status: response.status,
      code: body.error.code,
      message: body.error.message,
      error: body.error,
      requestId: body.request_id ?? requestId,
      headers: response.headers,
    });
  }
}

/**
 * A refusal or failure the API answered with (after any retries), one type per code, so that checking `code`
 * types `error` with that code's fields: after `err.code === 'refund_exceeds_check'`, `err.error.refundable` is
 * a number.
 */
export type VenueLoyaltyError = Refusal &
  (
    | { [Code in ErrorCode]: { readonly code: Code; readonly error: ErrorObjectOf<Code> } }[ErrorCode]
    | { readonly code: 'unexpected_response' | 'connection_error'; readonly error: undefined }
  );

// A class's instances all have one type, so the union above is given to the class through its constructor's type:
// `instanceof` narrows to the type of `prototype`.
export const VenueLoyaltyError = Refusal as {
  new (fields: RefusalFields): VenueLoyaltyError;
  readonly prototype: VenueLoyaltyError;
  fromResponse(response: Response, body: unknown): VenueLoyaltyError;
};

/** No answer arrived (refused connection, reset, DNS, timeout) after every retry. */
export class VenueLoyaltyConnectionError extends Refusal {
  override name = 'VenueLoyaltyConnectionError';
  declare readonly code: 'connection_error';
  declare readonly error: undefined;
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
  error: ErrorObject;
  request_id?: string;
}

function isEnvelope(body: unknown): body is Envelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && typeof (error as { message?: unknown }).message === 'string';
}
