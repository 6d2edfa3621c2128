import { ASSET_CSV_COLUMNS, type ExportChunk } from '@custodian/contracts';
import { Logger, applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';

const logger = new Logger('CsvExport');

/**
 * Streams a CSV export to the client: the register's chunks (ExportChunk, a few thousand rows
 * each) one after the other, the next asked for only once the client has taken the last (a
 * Readable's pull), so the gateway holds one chunk at a time whatever the export's size. The
 * first chunk is read before anything is sent: a refused query is the usual 400. A chunk that
 * fails later ends the download short with an error (the connection is cut, never a file that
 * looks complete).
 */
export async function sendCsvExport(
  reply: FastifyReply,
  name: string,
  chunk: (after: string | undefined) => Promise<ExportChunk>,
): Promise<void> {
  const first = await chunk(undefined);
  async function* body(): AsyncGenerator<string> {
    yield first.csv;
    let next = first.next;
    while (next !== null) {
      const part = await chunk(next);
      yield part.csv;
      next = part.next;
    }
  }
  const stream = Readable.from(body());
  stream.on('error', (error: Error) => logger.warn(`${name} export cut short: ${error.message}`));
  const day = new Date().toISOString().slice(0, 10);
  await reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(stream);
}

/** The document's side of an export: CSV, `columns`, streamed. */
export function ApiCsvExport(what: string, columns: readonly string[]): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/csv'),
    ApiQuery({
      name: 'columns',
      required: false,
      description:
        `The columns, in order, as a comma list (all of them without it): ${columns.join(', ')}` +
        (columns === ASSET_CSV_COLUMNS ? ", and each custom field's key" : '') +
        '. The header line names them; an import takes the same headers.',
      schema: { type: 'string' },
    }),
    ApiOkResponse({
      description:
        `Every ${what} matching the filters, oldest first, as CSV (RFC 4180, UTF-8 with a ` +
        'byte-order mark, CRLF), streamed: a million rows take constant memory. A cell that a ' +
        'spreadsheet would run as a formula starts with an apostrophe. A download cut short ' +
        'was not complete: ask again.',
      content: { 'text/csv': { schema: { type: 'string' } } },
    }),
  );
}
