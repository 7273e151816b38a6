/**
 * The one catalogue of the emulator's API errors: a stable `errorCode`, the
 * HTTP status, and a default message. Every error of an /api/v2 (or control)
 * route leaves the emulator as
 *
 *   { "statusCode": 404, "error": "Not Found", "message": "...", "errorCode": "inexistent_user" }
 *
 * Tests assert on `errorCode` and `statusCode`, never on message prose.
 * The token endpoint answers in RFC 6749 style instead (see auth.ts).
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { FastifyReply } from 'fastify';

export const errorCatalogue = {
  // Authentication and authorization
  missing_authorization: { statusCode: 401, message: 'Missing authentication' },
  invalid_token: { statusCode: 401, message: 'Invalid token' },
  insufficient_scope: { statusCode: 403, message: 'Insufficient scope' },
  forbidden: { statusCode: 403, message: 'Forbidden' },
  too_many_requests: {
    statusCode: 429,
    message: 'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.',
  },

  // Request shape
  invalid_uri: { statusCode: 400, message: 'Invalid request URI' },
  invalid_query_string: { statusCode: 400, message: 'Invalid query string' },
  invalid_body: { statusCode: 400, message: 'Payload validation error' },
  invalid_json: { statusCode: 400, message: 'Malformed JSON body' },
  invalid_cursor: { statusCode: 400, message: 'Invalid or unknown cursor' },
  unsupported_media_type: { statusCode: 415, message: 'Unsupported Media Type' },
  payload_too_large: { statusCode: 413, message: 'Request body is too large' },
  bad_request: { statusCode: 400, message: 'Bad Request' },

  // Routing
  not_found: { statusCode: 404, message: 'Not Found' },
  method_not_allowed: { statusCode: 405, message: 'Method Not Allowed' },

  // Resources that do not exist
  inexistent_user: { statusCode: 404, message: 'The user does not exist.' },
  inexistent_experiment: { statusCode: 404, message: 'The experiment does not exist.' },
  inexistent_client_grant: { statusCode: 404, message: 'The client grant does not exist.' },
  inexistent_event_stream: { statusCode: 404, message: 'The event stream does not exist.' },
  inexistent_self_service_profile: { statusCode: 404, message: 'The self-service profile does not exist.' },
  inexistent_custom_signing_keys: { statusCode: 404, message: 'No custom signing keys are set.' },
  inexistent_organization: { statusCode: 404, message: 'The organization does not exist.' },
  inexistent_connection: { statusCode: 404, message: 'The connection does not exist.' },

  // State conflicts
  invalid_transition: { statusCode: 409, message: 'The experiment cannot move to the requested status.' },
  already_exists: { statusCode: 409, message: 'The resource already exists.' },

  // Only with a fault switched on (faults/catalogue.ts): a backend that gives up.
  service_unavailable: { statusCode: 503, message: 'Service Unavailable' },

  // Never expected: the self-tests fail on any 5xx.
  internal_error: { statusCode: 500, message: 'Internal Server Error' },
} as const satisfies Record<string, { statusCode: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errorCode: ErrorCode;
}

/** An error of the catalogue, thrown by handlers and hooks, rendered by the error handler. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errorCode: ErrorCode;
  /** Same as errorCode; lets fastify's hook callbacks take an ApiError as a FastifyError. */
  readonly code: string;
  /** Extra response headers (e.g. Allow on 405, WWW-Authenticate on 401/403). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(errorCode: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? errorCatalogue[errorCode].message);
    this.name = 'ApiError';
    this.errorCode = errorCode;
    this.code = errorCode;
    this.statusCode = errorCatalogue[errorCode].statusCode;
    this.headers = headers;
  }

  /** The body; `status` overrides the catalogue's status (a variant's choice). */
  toBody(status: number = this.statusCode): ErrorBody {
    return {
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message: this.message,
      errorCode: this.errorCode,
    };
  }
}

export function apiError(code: ErrorCode, message?: string, headers?: Record<string, string>): ApiError {
  return new ApiError(code, message, headers);
}

/** The errorCode of a 400 fastify raises itself, by its own code: how its body is read or its URI routed. */
const FRAMEWORK_400: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_BAD_URL: 'invalid_uri',
  FST_ERR_MAX_PARAM_LENGTH: 'invalid_uri',
};

/**
 * Which errorCode names a client error the catalogue has no status of its own for (every one a 400). The
 * names are the emulator's: "The shape of error response bodies: not shown".
 */
function nameOfClientError(err: unknown): ErrorCode {
  // JSON.parse / secure-json-parse failures (malformed JSON, __proto__ keys) are SyntaxErrors.
  if (err instanceof SyntaxError) return 'invalid_json';
  const code = (err as { code?: unknown }).code;
  return (typeof code === 'string' ? FRAMEWORK_400[code] : undefined) ?? 'bad_request';
}

/**
 * Any thrown value as an ApiError: catalogue errors pass through; any other error carrying a 4xx status
 * (fastify's parser and router errors) keeps it where the catalogue has it (413, 415) and is a 400 otherwise;
 * everything else is an internal_error.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const status = typeof err === 'object' && err !== null ? (err as { statusCode?: unknown }).statusCode : undefined;
  if (typeof status !== 'number' || status < 400 || status >= 500) return new ApiError('internal_error');
  if (status === 413) return new ApiError('payload_too_large');
  if (status === 415) return new ApiError('unsupported_media_type');
  return new ApiError(nameOfClientError(err));
}

/**
 * fastify answers every body-parser error with `Connection: close` (in case
 * the client sends more of an unread body). A malformed JSON or form body
 * that was read whole leaves the framing intact: keep the connection, or the
 * requests a client already sent on it are reset. Unread bodies (over the
 * limit) still close.
 */
export function keepConnectionIfBodyRead(reply: FastifyReply): void {
  if (reply.request.raw.complete) reply.removeHeader('connection');
}

/** How much of a body over the limit is read and thrown away before its 413, at most. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 5_000;

/**
 * Reads and throws away what is left of a body the parser stopped reading
 * (over the limit), so that the 413 reaches a client still sending it:
 * closing on an unread body resets the connection under the client's
 * writes, and it never sees the answer. Bounded in bytes and time; past
 * either the connection closes as before.
 */
export function drainUnreadBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}
