import {
  DomainError,
  IMPORT_APPEND_ROWS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_COLUMNS,
  IMPORT_MAX_ROWS,
  RegisterRpc,
  type CallerMessage,
  type CreateImportQuery,
  type Import,
  type ImportType,
  type ReplyOf,
  type RequestOf,
  type RpcContract,
} from '@custodian/contracts';
import { parse } from 'csv-parse';
import { Readable, Transform } from 'node:stream';

/** The register's side of an upload, whoever the caller is (an API key, a member). */
export interface ImportSink {
  create(columns: string[]): Promise<Import>;
  append(id: string, firstRow: number, rows: string[][]): Promise<unknown>;
  seal(id: string, rows: number): Promise<Import>;
  fail(id: string, reason: string): Promise<unknown>;
}

/** A message to the register as the uploader: an API key's client or the console's. */
export type RegisterCall = <C extends RpcContract<CallerMessage>>(
  contract: C,
  message: Omit<RequestOf<C>, 'caller'>,
) => Promise<ReplyOf<C>>;

/**
 * POST /imports, the API's and the console's: the file in `body` read by uploadCsv, each step
 * a register message sent as the caller `call` stands for.
 */
export function uploadImport(
  body: unknown,
  query: CreateImportQuery,
  contentLength: string | undefined,
  call: RegisterCall,
): Promise<Import> {
  return uploadCsv(
    body,
    { type: query.type, contentLength },
    {
      create: (columns) =>
        call(RegisterRpc.importsCreate, {
          type: query.type,
          dry_run: query.dry_run !== 'false',
          columns,
          ...(query.filename ? { filename: query.filename } : {}),
        }),
      append: (id, firstRow, rows) =>
        call(RegisterRpc.importsAppend, { id, first_row: firstRow, rows }),
      seal: (id, rows) => call(RegisterRpc.importsSeal, { id, rows }),
      fail: (id, reason) => call(RegisterRpc.importsFail, { id, reason }),
    },
  );
}

export interface UploadOptions {
  type: ImportType;
  contentLength: string | undefined;
}

const MIB = 1024 * 1024;

/**
 * Reads a CSV file from the request as it arrives (csv-parse's stream: RFC 4180, a byte-order
 * mark dropped, rows of any width) and hands it to the register: the header first (an import
 * whose columns cannot be imported is refused before any row is stored), then rows in
 * batches of IMPORT_APPEND_ROWS, each sent once the one before was stored, so the gateway
 * holds one batch whatever the file's size. More than IMPORT_MAX_BYTES or IMPORT_MAX_ROWS is a
 * 413, a line that is no CSV a 400 naming it; either marks the import failed (its rows go).
 */
export async function uploadCsv(
  body: unknown,
  options: UploadOptions,
  sink: ImportSink,
): Promise<Import> {
  if (!(body instanceof Readable)) {
    throw new DomainError('unsupported_media_type', 'Content-Type must be text/csv');
  }
  const declared = Number(options.contentLength ?? NaN);
  if (Number.isFinite(declared) && declared > IMPORT_MAX_BYTES) {
    body.resume();
    throw tooLarge();
  }
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(bytes > IMPORT_MAX_BYTES ? tooLarge() : null, chunk);
    },
  });
  const records = body
    .pipe(counted)
    .pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  body.on('error', (error) => counted.destroy(error));
  counted.on('error', (error) => records.destroy(error));

  let created: Import | null = null;
  let batch: string[][] = [];
  let rows = 0;
  const flush = async () => {
    if (!created || batch.length === 0) return;
    await sink.append(created.id, rows - batch.length + 1, batch);
    batch = [];
  };
  try {
    for await (const record of records as AsyncIterable<string[]>) {
      if (!created) {
        if (record.length > IMPORT_MAX_COLUMNS) {
          throw new DomainError(
            'invalid_input',
            `the header has ${record.length} columns; an import takes at most ${IMPORT_MAX_COLUMNS}`,
          );
        }
        created = await sink.create(record);
        continue;
      }
      rows += 1;
      if (rows > IMPORT_MAX_ROWS) {
        throw new DomainError(
          'payload_too_large',
          `an import holds at most ${IMPORT_MAX_ROWS.toLocaleString('en')} rows`,
        );
      }
      batch.push(record);
      if (batch.length === IMPORT_APPEND_ROWS) await flush();
    }
    if (!created) throw new DomainError('invalid_input', 'the file has no header line');
    await flush();
    return await sink.seal(created.id, rows);
  } catch (error) {
    records.destroy();
    body.resume();
    const refusal = asRefusal(error);
    if (created) {
      const reason = refusal?.message ?? 'the upload broke off before the end of the file';
      await sink.fail(created.id, reason).catch(() => undefined);
    }
    throw refusal ?? error;
  }
}

function tooLarge(): DomainError {
  return new DomainError(
    'payload_too_large',
    `the file is larger than ${IMPORT_MAX_BYTES / MIB} MiB, the most an import takes`,
  );
}

/**
 * A parser's error in words that say where, a refusal as it is; null for anything else (the
 * client went away, the register did not answer).
 */
function asRefusal(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  const { code, message, lines } = (error ?? {}) as {
    code?: string;
    message?: string;
    lines?: number;
  };
  if (typeof code === 'string' && code.startsWith('CSV_')) {
    return new DomainError(
      'invalid_input',
      `the file is not valid CSV${lines ? ` at line ${lines}` : ''}: ${message ?? code}`,
    );
  }
  return null;
}
