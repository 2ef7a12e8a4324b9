// The member import resource (D20): a file of members sent through the API and processed by a worker.
import { Type, type Static } from 'typebox';
import { IMPORT_FIELDS } from '../members/bulk-import-read.js';

export const BadLine = Type.Object({
  line: Type.Integer({ description: "The file's line, from 1; a CSV file's header is line 1." }),
  reason: Type.String(),
});

export const MemberImport = Type.Object({
  object: Type.Literal('member_import'),
  id: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
  format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl')]),
  program_id: Type.String({ format: 'uuid' }),
  total_lines: Type.Union([Type.Integer(), Type.Null()], { description: "Lines of the file after a CSV file's header." }),
  processed: Type.Integer({ description: 'Of those, the lines done so far.' }),
  imported: Type.Integer({ description: 'Members created.' }),
  skipped: Type.Integer({ description: 'Good lines whose card number the chain had already (imported before).' }),
  failed: Type.Integer({ description: 'Bad lines: see errors.' }),
  errors: Type.Array(BadLine, { description: 'Bad lines after errors_after (default: from the start), at most 100, in file order.' }),
  has_more_errors: Type.Boolean({ description: 'More bad lines follow: ask again with errors_after set to the last line shown.' }),
  failure: Type.Union([Type.String(), Type.Null()], { description: 'Why the whole file was refused (status failed), e.g. its header.' }),
  livemode: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { title: 'MemberImport' });
export type MemberImport = Static<typeof MemberImport>;

const COLUMNS = `${IMPORT_FIELDS.join(', ')}; card_number and consent_date required; see docs/members.md`;

/**
 * The upload's body by media type: the file itself, which the route reads as a stream rather than validates, and
 * the document shows (see `streamedBody` in src/http/openapi.ts) so that generated clients can send it.
 */
export const ImportFile = {
  'text/csv': Type.String({ minLength: 1, description: `CSV, UTF-8: a header row naming its columns (${COLUMNS}), then one member a line.` }),
  'application/x-ndjson': Type.String({ minLength: 1, description: `JSON Lines, UTF-8: one member a line, an object with those names as keys (${COLUMNS}).` }),
};

export const ImportQuery = Type.Object(
  { program_id: Type.Optional(Type.String({ format: 'uuid', description: "Default: the chain's default program." })) },
  { additionalProperties: false },
);

export const ImportParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const ImportReadQuery = Type.Object(
  { errors_after: Type.Optional(Type.Integer({ minimum: 0, description: 'Show bad lines after this line.' })) },
  { additionalProperties: false },
);
