import { Readable } from 'node:stream';
import { csvRecords, detectFormat } from './csv-format';
import { CsvProblem, MAX_HEADER_BYTES, MAX_HEADER_LENGTH, MAX_HEADERS, scanCsv } from './csv-scan';

const utf16 = (text: string, order: 'le' | 'be', bom = true): Buffer => {
  const le = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`, 'utf16le');
  return order === 'le' ? le : Buffer.from(le).swap16();
};

async function scan(bytes: Buffer) {
  const format = detectFormat(bytes.subarray(0, 65536));
  return { format, ...(await scanCsv(Readable.from([bytes]), format)) };
}

async function records(bytes: Buffer): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const record of csvRecords(Readable.from([bytes]), detectFormat(bytes)) as AsyncIterable<string[]>) rows.push(record);
  return rows;
}

describe('CSV uploads: encoding, delimiter, headers and row count', () => {
  it('reads UTF-8 with a byte order mark, comma-separated, with a quoted line break', async () => {
    const file = Buffer.from('\uFEFFemail,name\r\na@example.com,"Ann\r\nSecond line"\r\nb@example.com,Bö\r\n');
    expect(await scan(file)).toEqual({ format: { encoding: 'utf-8', delimiter: ',' }, headers: ['email', 'name'], rowCount: 2 });
    expect((await records(file))[1]).toEqual(['a@example.com', 'Ann\r\nSecond line']);
  });

  it("reads Excel's UTF-16 LE tab-separated export and a UTF-16 BE file", async () => {
    const text = 'email\tNäme\na@example.com\tÅsa\n';
    expect(await scan(utf16(text, 'le'))).toEqual({ format: { encoding: 'utf-16le', delimiter: '\t' }, headers: ['email', 'Näme'], rowCount: 1 });
    expect(await scan(utf16(text, 'be'))).toEqual({ format: { encoding: 'utf-16be', delimiter: '\t' }, headers: ['email', 'Näme'], rowCount: 1 });
    expect((await records(utf16(text, 'le', false)))[1]).toEqual(['a@example.com', 'Åsa']);
  });

  it('reads a semicolon-separated export (Excel in many locales), and Windows-1252 when the bytes are not UTF-8', async () => {
    expect(await scan(Buffer.from('email;name;"a;b"\nx@example.com;X;1\n'))).toMatchObject({ format: { delimiter: ';' }, headers: ['email', 'name', 'a;b'] });
    const latin1 = Buffer.from([...Buffer.from('email,name\nz@example.com,Jos'), 0xe9, 0x0a]);
    expect(await scan(latin1)).toMatchObject({ format: { encoding: 'windows-1252' }, rowCount: 1 });
    expect((await records(latin1))[1]).toEqual(['z@example.com', 'José']);
  });

  it('counts rows but not blank lines', async () => {
    expect(await scan(Buffer.from('email\n\na@example.com\n\nb@example.com'))).toMatchObject({ rowCount: 2 });
  });

  it.each([
    ['an empty file', '', 'empty_file'],
    ['a header row of blanks', ',,\n', 'no_header_row'],
    ['too many columns', `${Array.from({ length: MAX_HEADERS + 1 }, (_, i) => `c${i}`).join(',')}\n`, 'too_many_columns'],
    ['a column name over 200 characters', `email,${'x'.repeat(201)}\n`, 'column_name_too_long'],
    ['two columns with one name', 'email,name,email\n', 'duplicate_column'],
    ['a NUL byte in the header row (a binary file)', 'email,na\0me\nx@example.com,a\n', 'unreadable_csv'],
    [
      'column names over 12 KiB together',
      `${Array.from({ length: MAX_HEADERS }, (_, i) => `${i}`.padEnd(MAX_HEADER_LENGTH, 'x')).join(',')}\n`,
      'column_names_too_long',
    ],
  ])('refuses %s', async (_case, text, code) => {
    await expect(scan(Buffer.from(text))).rejects.toMatchObject({ code });
  });

  it('counts a column name in characters, not UTF-16 units, and takes names up to 12 KiB together', async () => {
    const emoji = '\u{1F600}'.repeat(MAX_HEADER_LENGTH);
    expect(await scan(Buffer.from(`email,${emoji}\n`))).toMatchObject({ headers: ['email', emoji] });
    await expect(scan(Buffer.from(`email,${emoji}\u{1F600}\n`))).rejects.toMatchObject({ code: 'column_name_too_long' });
    const names = Array.from({ length: 60 }, (_, i) => `${i}`.padEnd(MAX_HEADER_LENGTH, 'x'));
    expect(Buffer.byteLength(JSON.stringify(names))).toBeLessThanOrEqual(MAX_HEADER_BYTES);
    expect(await scan(Buffer.from(`${names.join(',')}\n`))).toMatchObject({ headers: names });
  });

  it('names the line where a corrupt file goes wrong', async () => {
    const error = (await scan(Buffer.from('email,name\na@example.com,A\nb@example.com,"B\n')).catch((e: unknown) => e)) as CsvProblem;
    expect(error).toBeInstanceOf(CsvProblem);
    expect(error.code).toBe('unreadable_csv');
    expect(error.message).toMatch(/line 3/);
  });

  it('refuses bytes that are not UTF-8 after a UTF-8 start', async () => {
    const head = Buffer.from(`email\n${'a@example.com\n'.repeat(6000)}`);
    const bad = Buffer.concat([head, Buffer.from([0xff, 0x0a])]);
    await expect(scanCsv(Readable.from([bad]), { encoding: 'utf-8', delimiter: ',' })).rejects.toThrow(/not valid UTF-8/);
  });
});
