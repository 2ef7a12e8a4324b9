// HTTP routes for member imports: the upload (CSV or JSON Lines, streamed to the database) and the job's progress.
import type { Readable } from 'node:stream';
import { callerOf, type App } from '../../http/context.js';
import { runMutation } from '../../http/idempotency.js';
import { withErrors } from '../../http/responses.js';
import { ApiError } from '../../shared/errors.js';
import { ImportFile, ImportParams, ImportQuery, ImportReadQuery, MemberImport } from './schemas.js';
import * as service from './service.js';

const tags = ['Members'];
const FORMATS = { 'text/csv': 'csv', 'application/x-ndjson': 'jsonl' } as const satisfies Record<keyof typeof ImportFile, string>;

/**
 * The request body as the stream it is, held in a private field: the input checks walk a parsed body's fields,
 * and a stream has none to walk. Once stored, it stands in an Idempotency-Key's fingerprint as its bytes' SHA-256
 * (toJSON), computed while storing: a 50 MB body is never held to be hashed.
 */
class Upload {
  readonly #stream: Readable;
  #stored: { format: string; sha256: string } | undefined;
  constructor(stream: Readable) {
    this.#stream = stream;
  }
  get stream(): Readable {
    return this.#stream;
  }
  stored(format: string, sha256: string): void {
    this.#stored = { format, sha256 };
  }
  toJSON() {
    return this.#stored;
  }
}

export async function importRoutes(app: App): Promise<void> {
  const db = () => app.deps.db;
  // These parsers belong to this plugin only: every other route keeps to JSON.
  app.addContentTypeParser(Object.keys(FORMATS), (_req, payload, done) => done(null, new Upload(payload as Readable)));
  // Any other type reaches the handler unread, so its 415 names the types this route takes (not JSON's).
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  app.post(
    '/v1/members/imports',
    {
      bodyLimit: service.MAX_IMPORT_BYTES,
      schema: {
        operationId: 'createMemberImport',
        tags,
        summary: 'Import members from a CSV (text/csv) or JSON Lines (application/x-ndjson) file of up to 50 MB; a worker processes it',
        description:
          'The body is the file itself (see docs/members.md, "Importing members"). Answers 202 with the import; follow it with ' +
          'GET /v1/members/imports/{id}. Idempotent by card number: sending the same file again skips the members already imported. ' +
          'Idempotency-Key as on every POST (its fingerprint takes the file\'s bytes). ' +
          'Errors: 400 parameter_invalid (program_id; file empty); 413 request_body_too_large; 415 unsupported_content_type. See /api/errors.',
        querystring: ImportQuery,
        streamedBody: ImportFile,
        response: withErrors({ 202: MemberImport }),
      },
    },
    async (req, reply) => {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() as keyof typeof FORMATS;
      if (!(req.body instanceof Upload) || !FORMATS[type]) {
        throw new ApiError('unsupported_content_type', { message: 'Send the file as the body with Content-Type: text/csv or application/x-ndjson.' });
      }
      const declared = Number(req.headers['content-length']);
      const caller = callerOf(req);
      const upload = await service.receiveUpload(db(), caller, {
        format: FORMATS[type],
        programId: req.query.program_id,
        body: req.body.stream,
        declaredBytes: Number.isFinite(declared) ? declared : undefined,
      });
      req.body.stored(FORMATS[type], upload.sha256);
      // Accepted with the Idempotency-Key's answer in one transaction (D6); a replay or a refusal discards this copy.
      let accepted = false;
      try {
        const created = await runMutation(req, reply, 202, async (trx) => {
          const job = await service.acceptUpload(trx, caller, upload);
          accepted = true;
          return job;
        });
        if (!accepted) await service.discardUpload(db(), caller, upload);
        return created;
      } catch (err) {
        await service.discardUpload(db(), caller, upload);
        throw err;
      }
    },
  );

  app.get(
    '/v1/members/imports/:id',
    {
      schema: {
        operationId: 'getMemberImport',
        errors: ['member_import_not_found'],
        tags,
        summary: "A member import's progress and its bad lines (each with its line and reason)",
        description: 'Errors: 400 parameter_invalid (errors_after); 404 member_import_not_found. See /api/errors.',
        params: ImportParams,
        querystring: ImportReadQuery,
        response: withErrors({ 200: MemberImport }),
      },
    },
    (req) => service.getImport(db(), callerOf(req), req.params.id, req.query.errors_after),
  );
}
