import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { Status, httpStatusOf, type Envelope, type Pagination } from '@p8/contract/envelope';
import { isErrorKey, type ErrorKey } from '@p8/contract/errors';
import type { RefusalDetails } from '@p8/contract/refusals';
import { BizError, databaseErrorOf, loggableError, UNIQUE_VIOLATION_KEYS } from './errors.ts';

/** The success envelope. */
export function ok<T>(data: T): Envelope<T> {
  return { status: Status.Success, message: 'Success', data };
}

export function paged<T>(data: T[], pagination: Pagination): Envelope<T[]> & { pagination: Pagination } {
  return { status: Status.Success, message: 'Success', data, pagination };
}

export function fail(status: number, message: string, extra: { additional?: string; details?: RefusalDetails; remark?: string; data?: unknown } = {}): Envelope<unknown> {
  return {
    status,
    message,
    ...(extra.remark ? { remark: extra.remark } : {}),
    ...(extra.additional ? { additional: extra.additional } : {}),
    ...(extra.details ? { details: extra.details } : {}),
    data: extra.data ?? null,
  };
}

/**
 * A zod issue's message is a catalogue key when a schema says so (`{ message: 'PhoneFormatError' }`);
 * otherwise the failure is the generic BadRequest naming the field.
 */
function fromZodIssues(issues: Array<{ path: PropertyKey[]; message: string }>) {
  const first = issues[0];
  const field = first ? first.path.map(String).join('.') : '';
  const key = first && isErrorKey(first.message) ? first.message : 'BadRequest';
  return fail(Status.BadRequest, key, { additional: field || undefined, remark: key === 'BadRequest' ? first?.message : undefined });
}

/**
 * Fastify's and its plugins' own refusals, by code, with the catalogue key and HTTP status they answer.
 * Checked before the generic 4xx branch so that each says what was wrong, not only "bad request".
 */
const FRAMEWORK_ERRORS: Record<string, { key: ErrorKey; httpStatus: number }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { key: 'RequestBodyTooLarge', httpStatus: 413 },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { key: 'UnsupportedContentType', httpStatus: 415 },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { key: 'BadRequest', httpStatus: 400 },
  FST_ERR_CTP_EMPTY_JSON_BODY: { key: 'MalformedJson', httpStatus: 400 },
  FST_ERR_CTP_INVALID_JSON_BODY: { key: 'MalformedJson', httpStatus: 400 },
  FST_ERR_BAD_URL: { key: 'BadRequest', httpStatus: 400 },
  FST_ERR_MAX_PARAM_LENGTH: { key: 'RequestUrlTooLong', httpStatus: 414 },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { key: 'MultipartMalformed', httpStatus: 400 },
  FST_MP_PREMATURE_CLOSE: { key: 'MultipartMalformed', httpStatus: 400 },
  FST_PARTS_LIMIT: { key: 'MultipartMalformed', httpStatus: 400 },
  FST_FIELDS_LIMIT: { key: 'MultipartMalformed', httpStatus: 400 },
  FST_PROTO_VIOLATION: { key: 'MultipartMalformed', httpStatus: 400 },
};

function frameworkErrorKey(error: FastifyError): { key: ErrorKey; httpStatus: number } | undefined {
  if (error.code && error.code in FRAMEWORK_ERRORS) return FRAMEWORK_ERRORS[error.code];
  // The JSON parser's own SyntaxError (Fastify gives it status 400 and no code).
  if (error instanceof SyntaxError && error.statusCode === 400) return { key: 'MalformedJson', httpStatus: 400 };
  return undefined;
}

/** Refused bodies read away before answering: at most this much, then the connection is closed on the rest. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 30_000;

/** Reads and discards what is left of a request body (bounded by DRAIN_MAX_BYTES and DRAIN_MAX_MS). */
export function drainRequest(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('data', onData).on('end', done).on('error', done).on('close', done);
    raw.resume();
  });
}

/**
 * The envelope Fastify's router answers with when it refuses a URL before any route runs (a path
 * parameter longer than `maxParamLength`, a malformed percent-escape): registered as `frameworkErrors`.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const known = frameworkErrorKey(error) ?? { key: 'BadRequest' as const, httpStatus: 400 };
  return reply.code(known.httpStatus).send(fail(Status.BadRequest, known.key));
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers or URL beyond
 * `maxHeaderSize`, a malformed request line): they get the envelope too, written on the raw socket.
 * Registered as Fastify's `clientErrorHandler`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [httpStatus, key]: [number, ErrorKey] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'RequestHeadersTooLarge'] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'TimeOut'] : [400, 'BadRequest'];
  const body = JSON.stringify(fail(Status.BadRequest, key));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${httpStatus} ${STATUS_CODES[httpStatus]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Every response is the envelope: errors, validation failures and unknown routes included.
 * `spaFallback`: GET requests outside /api that match no file get the web app's index.html (client routes).
 */
export function registerEnvelopeHandlers(app: FastifyInstance, options: { spaFallback?: boolean } = {}) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof BizError) {
      return reply.code(httpStatusOf(error.status)).send(fail(error.status, error.key, error));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: (v.instancePath || '').split('/').filter(Boolean),
        message: v.message ?? '',
        ...v.params,
      }));
      const named = issues.map((i) => ({ ...i, path: i.path.length ? i.path : [String((i as { issue?: { path?: unknown[] } }).issue?.path?.join('.') ?? '')] }));
      return reply.code(400).send(fromZodIssues(named));
    }
    if (error instanceof ZodError) {
      return reply.code(400).send(fromZodIssues(error.issues));
    }
    if (error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_FILES_LIMIT') {
      return reply.code(400).send(fail(Status.BadRequest, 'UploadSizeExceeded'));
    }
    const framework = frameworkErrorKey(error);
    if (framework) {
      // The client is still sending the body Fastify refused: read it away first, or closing the
      // connection on unread data resets it and the client never sees this answer.
      if (framework.httpStatus === 413) await drainRequest(request.raw);
      return reply.code(framework.httpStatus).send(fail(Status.BadRequest, framework.key, { remark: error.message }));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Any other client error of a plugin: still the envelope, with a catalogued key.
      const status = error.statusCode === 401 ? Status.Unauthorized : error.statusCode === 403 ? Status.Forbidden : Status.BadRequest;
      return reply.code(httpStatusOf(status)).send(fail(status, status === Status.BadRequest ? 'BadRequest' : status === Status.Forbidden ? 'Forbidden' : 'Unauthorized', { remark: error.message }));
    }
    const dbError = databaseErrorOf(error);
    const uniqueKey = dbError?.code === '23505' && dbError.constraint ? UNIQUE_VIOLATION_KEYS[dbError.constraint] : undefined;
    if (uniqueKey) return reply.code(400).send(fail(Status.BadRequest, uniqueKey));
    // numeric_value_out_of_range: a sum (a balance, a line amount, a stock value) beyond numeric(20,6).
    if (dbError?.code === '22003') return reply.code(400).send(fail(Status.BadRequest, 'AmountOutOfRange'));
    request.log.error({ err: loggableError(error) }, 'unexpected error');
    // No stack trace leaves the server; the request id lets an operator find it in the log.
    return reply.code(500).send(fail(Status.Error, 'ServerError', { additional: String(request.id) }));
  });

  app.setNotFoundHandler((request, reply) => {
    if (options.spaFallback && request.method === 'GET' && !request.url.startsWith('/api/')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send(fail(404, 'NotFound', { additional: request.url.split('?')[0] }));
  });
}

/** A timestamp as answers carry it: ISO 8601 text (null stays null). */
export const iso = (date: Date | null) => (date ? date.toISOString() : null);
