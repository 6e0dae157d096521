import { Readable, Transform } from 'node:stream';
import { parse, Parser } from 'csv-parse';

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type CsvDelimiter = ',' | ';' | '\t';

/** How a stored CSV is read: found once on upload from its first bytes, then reused by every reader of the file. */
export interface CsvFormat {
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
}

/** The longest record (in characters) a reader accepts, so one malformed quote cannot make it buffer the whole file. */
const MAX_RECORD_CHARS = 1024 * 1024;

/**
 * The text encoding from a byte order mark (UTF-8, or Excel's "Unicode text", UTF-16 LE/BE), else from NUL bytes
 * (UTF-16 without a mark), else UTF-8 if the head decodes as UTF-8, else Windows-1252 (Excel's legacy "CSV").
 */
export function detectEncoding(head: Buffer): CsvEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const sample = head.subarray(0, Math.min(head.length, 4096));
  let evenNuls = 0;
  let oddNuls = 0;
  sample.forEach((byte, index) => {
    if (byte === 0 && index % 2) oddNuls++;
    else if (byte === 0) evenNuls++;
  });
  if (oddNuls > sample.length / 4) return 'utf-16le';
  if (evenNuls > sample.length / 4) return 'utf-16be';
  try {
    // A multi-byte character cut at the end of the head is not an error: stream mode keeps it pending.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The delimiter of the header record: the most frequent of `,` `;` tab outside quotes; `,` when there is none. */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char in counts) counts[char as CsvDelimiter]++;
  }
  return (Object.keys(counts) as CsvDelimiter[]).reduce((best, candidate) => (counts[candidate] > counts[best] ? candidate : best), ',');
}

export function detectFormat(head: Buffer): CsvFormat {
  const encoding = detectEncoding(head);
  return { encoding, delimiter: detectDelimiter(new TextDecoder(encoding).decode(head)) };
}

/** Bytes in, text out, in the given encoding; a byte sequence that is not UTF-8 fails the stream. */
export function decoder(encoding: CsvEncoding): Transform {
  const text = new TextDecoder(encoding, { fatal: encoding === 'utf-8', ignoreBOM: false });
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, next) {
      try {
        next(null, text.decode(chunk, { stream: true }));
      } catch {
        next(new Error('The file is not valid UTF-8 text.'));
      }
    },
    flush(next) {
      try {
        next(null, text.decode());
      } catch {
        next(new Error('The file is not valid UTF-8 text.'));
      }
    },
  });
}

/** Records (arrays of cells) of a stored CSV, read as a stream; quoted cells may hold delimiters and line breaks. */
export function csvRecords(bytes: Readable, format: CsvFormat): Parser {
  const parser = parse({
    delimiter: format.delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const text = decoder(format.encoding);
  bytes.once('error', (error) => parser.destroy(error));
  text.once('error', (error) => parser.destroy(error));
  bytes.pipe(text).pipe(parser);
  return parser;
}

/** Reads up to `bytes` from the start of a stream (or less, at its end), then stops reading it. */
export async function readHead(source: Readable, bytes = 64 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= bytes) break;
  }
  source.destroy();
  return Buffer.concat(chunks).subarray(0, bytes);
}
