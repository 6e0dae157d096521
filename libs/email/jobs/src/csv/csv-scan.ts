import { Readable } from 'node:stream';
import { CsvError } from 'csv-parse';
import { CsvFormat, csvRecords } from './csv-format';

/** The contract's bounds on an upload's column metadata. */
export const MAX_HEADERS = 250;
export const MAX_HEADER_LENGTH = 200;

/** What an upload learned from its file. */
export interface CsvScan {
  headers: string[];
  rowCount: number;
}

/** A file this import cannot read, with a message for the person who chose it. */
export class CsvProblem extends Error {
  constructor(
    readonly code: 'empty_file' | 'no_header_row' | 'too_many_columns' | 'column_name_too_long' | 'duplicate_column' | 'unreadable_csv',
    message: string,
  ) {
    super(message);
  }
}

/** csv-parse's error in words, with the line where the file went wrong. */
export function describeCsvError(error: unknown): string {
  if (error instanceof CsvError) {
    const line = (error as CsvError & { lines?: number }).lines;
    return `The file is not readable CSV${line ? ` at line ${line}` : ''}: ${error.message.replace(/^Invalid [^:]+: /, '')}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function checkHeaders(headers: string[]): string[] {
  if (!headers.some((header) => header.trim() !== '')) throw new CsvProblem('no_header_row', 'The first line of the file holds no column names.');
  if (headers.length > MAX_HEADERS) throw new CsvProblem('too_many_columns', `The file has ${headers.length} columns; at most ${MAX_HEADERS} can be imported.`);
  const long = headers.find((header) => header.length > MAX_HEADER_LENGTH);
  if (long !== undefined)
    throw new CsvProblem('column_name_too_long', `The column name "${long.slice(0, 40)}…" is longer than ${MAX_HEADER_LENGTH} characters.`);
  const seen = new Set<string>();
  for (const header of headers.filter((name) => name !== '')) {
    if (seen.has(header)) throw new CsvProblem('duplicate_column', `Two columns are named "${header}"; rename one so each column can be told apart.`);
    seen.add(header);
  }
  return headers;
}

/** Reads a whole stored CSV as a stream: its header row (checked against the contract's bounds) and how many rows follow. */
export async function scanCsv(bytes: Readable, format: CsvFormat): Promise<CsvScan> {
  let headers: string[] | undefined;
  let rowCount = 0;
  try {
    for await (const record of csvRecords(bytes, format) as AsyncIterable<string[]>) {
      if (headers) rowCount++;
      else headers = checkHeaders(record);
    }
  } catch (error) {
    if (error instanceof CsvProblem) throw error;
    throw new CsvProblem('unreadable_csv', describeCsvError(error));
  }
  if (!headers) throw new CsvProblem('empty_file', 'The file is empty.');
  return { headers, rowCount };
}
