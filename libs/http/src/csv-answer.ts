import { StreamableFile } from '@nestjs/common';
import { csvLine } from '@pcs/pages';
import type { Request } from 'express';
import { Readable } from 'node:stream';

/** Whether the request asks for CSV (`Accept: text/csv`) rather than JSON (the default, and what a tie gets). */
export function wantsCsv(request: Request): boolean {
  return request.accepts(['application/json', 'text/csv']) === 'text/csv';
}

/**
 * A list as CSV (contract §19: `Accept: text/csv`): a header of the columns,
 * then every row the batches yield, streamed as they come (nothing held in
 * memory beyond a batch), each field written by `csvLine` (quoted when
 * needed, spreadsheet formulas defused).
 */
export function csvAnswer<T>(
  filename: string,
  columns: readonly string[],
  batches: AsyncIterable<readonly T[]>,
  row: (item: T) => readonly unknown[],
): StreamableFile {
  async function* lines(): AsyncGenerator<string> {
    yield csvLine(columns);
    for await (const batch of batches) yield batch.map((item) => csvLine(row(item))).join('');
  }
  return new StreamableFile(Readable.from(lines()), {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${filename}"`,
  });
}

/** The OpenAPI content of a list that answers JSON or, on `Accept: text/csv`, CSV. */
export function jsonOrCsvContent(json: object): Record<string, { schema: object }> {
  return {
    'application/json': { schema: json },
    'text/csv': { schema: { type: 'string', description: 'Every row matching the filters (not paged), the JSON fields as columns' } },
  };
}
