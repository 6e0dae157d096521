import { Readable } from 'node:stream';
import { CsvError } from 'csv-parse';
import { isStorableText } from '@shared/errors';
import { CsvFormat, csvRecords } from './csv-format';

/** The contract's bounds on an upload's column metadata. */
export const MAX_HEADERS = 250;
export const MAX_HEADER_LENGTH = 200;
/** The contract's bound on the column names together: the UTF-8 bytes of the stored list of names. */
export const MAX_HEADER_BYTES = 12 * 1024;

/** What an upload learned from its file. */
export interface CsvScan {
  headers: string[];
  rowCount: number;
}

/** A file this import cannot read, with a message for the person who chose it. */
export class CsvProblem extends Error {
  constructor(
    readonly code:
      'empty_file' | 'no_header_row' | 'too_many_columns' | 'column_name_too_long' | 'column_names_too_long' | 'duplicate_column' | 'unreadable_csv',
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

/** Characters as the contract counts them (code points: an emoji is one, not two UTF-16 units). */
const characters = (text: string) => [...text].length;

function checkHeaders(headers: string[]): string[] {
  if (!headers.some((header) => header.trim() !== '')) throw new CsvProblem('no_header_row', 'The first line of the file holds no column names.');
  if (!headers.every(isStorableText))
    throw new CsvProblem('unreadable_csv', 'The header row holds a NUL byte or a broken character, so this is not a text CSV file.');
  if (headers.length > MAX_HEADERS) throw new CsvProblem('too_many_columns', `The file has ${headers.length} columns; at most ${MAX_HEADERS} can be imported.`);
  const long = headers.find((header) => characters(header) > MAX_HEADER_LENGTH);
  if (long !== undefined)
    throw new CsvProblem('column_name_too_long', `The column name "${[...long].slice(0, 40).join('')}…" is longer than ${MAX_HEADER_LENGTH} characters.`);
  const bytes = Buffer.byteLength(JSON.stringify(headers));
  if (bytes > MAX_HEADER_BYTES)
    throw new CsvProblem(
      'column_names_too_long',
      `The column names take ${Math.ceil(bytes / 1024)} KiB together; at most ${MAX_HEADER_BYTES / 1024} KiB can be imported. Shorten them or leave out columns.`,
    );
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
