import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { Status, httpStatusOf, type Envelope, type Pagination } from '@p8/contract/envelope';
import { isErrorKey } from '@p8/contract/errors';
import { BizError, databaseErrorOf, UNIQUE_VIOLATION_KEYS } from './errors.ts';

/** The success envelope. */
export function ok<T>(data: T): Envelope<T> {
  return { status: Status.Success, message: 'Success', data };
}

export function paged<T>(data: T[], pagination: Pagination): Envelope<T[]> & { pagination: Pagination } {
  return { status: Status.Success, message: 'Success', data, pagination };
}

function fail(status: number, message: string, extra: { additional?: string; remark?: string; data?: unknown } = {}): Envelope<unknown> {
  return {
    status,
    message,
    ...(extra.remark ? { remark: extra.remark } : {}),
    ...(extra.additional ? { additional: extra.additional } : {}),
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
 * Every response is the envelope: errors, validation failures and unknown routes included.
 * `spaFallback`: GET requests outside /api that match no file get the web app's index.html (client routes).
 */
export function registerEnvelopeHandlers(app: FastifyInstance, options: { spaFallback?: boolean } = {}) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
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
    if (error.statusCode === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE' || error.code === 'FST_FILES_LIMIT') {
      return reply.code(400).send(fail(Status.BadRequest, 'UploadSizeExceeded'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Malformed JSON, unsupported media type and the like.
      const status = error.statusCode === 401 ? Status.Unauthorized : error.statusCode === 403 ? Status.Forbidden : Status.BadRequest;
      return reply.code(httpStatusOf(status)).send(fail(status, status === Status.BadRequest ? 'BadRequest' : status === Status.Forbidden ? 'Forbidden' : 'Unauthorized', { remark: error.message }));
    }
    const dbError = databaseErrorOf(error);
    const uniqueKey = dbError?.code === '23505' && dbError.constraint ? UNIQUE_VIOLATION_KEYS[dbError.constraint] : undefined;
    if (uniqueKey) return reply.code(400).send(fail(Status.BadRequest, uniqueKey));
    request.log.error({ err: error }, 'unexpected error');
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
