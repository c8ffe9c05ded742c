import Papa from 'papaparse';

/**
 * A CSV file's text: UTF-8 (with or without a byte-order mark), or Shift_JIS as Excel on a
 * Japanese Windows saves "CSV" — tried when the bytes are not valid UTF-8.
 */
export function decodeCsv(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('shift_jis').decode(bytes);
  }
}

export interface CsvRead<C extends string> {
  /** The rows as cells of the known columns (text as written; the server trims and checks). */
  rows: Partial<Record<C, string>>[];
  /** Header names that are no known column (ignored; shown so a typo is seen). */
  unknownColumns: string[];
  /** The parser's problems (an unclosed quote, a row with too many cells), by line. */
  problems: { line: number; message: string }[];
}

/**
 * Reads a CSV with a header row (papaparse: quotes, commas and line breaks in cells, CRLF).
 * A header cell names a column by its key (`serialNumber`) or by one of its `aliases`
 * (the column's label in either language, e.g. `シリアル番号`); blank lines are skipped.
 */
export function readCsv<C extends string>(
  text: string,
  columns: readonly C[],
  aliases: Partial<Record<C, readonly string[]>> = {},
): CsvRead<C> {
  const fold = (s: string) =>
    s
      .normalize('NFKC')
      .trim()
      .toLowerCase()
      .replace(/[\s_-]/g, '');
  const byHeader = new Map<string, C>();
  for (const c of columns) {
    byHeader.set(fold(c), c);
    for (const a of aliases[c] ?? []) byHeader.set(fold(a), c);
  }
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const headers = parsed.meta.fields ?? [];
  const unknownColumns = headers.filter((h) => h !== '' && !byHeader.has(fold(h)));
  const rows = parsed.data.map((record) => {
    const row: Partial<Record<C, string>> = {};
    for (const [header, value] of Object.entries(record)) {
      const column = byHeader.get(fold(header));
      if (column !== undefined && typeof value === 'string') row[column] = value;
    }
    return row;
  });
  const problems = parsed.errors
    // A last line without its final newline is no problem for us.
    .filter((e) => e.code !== 'UndetectableDelimiter')
    .map((e) => ({ line: (e.row ?? 0) + 2, message: e.message }));
  return { rows, unknownColumns, problems };
}
