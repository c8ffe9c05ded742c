import { describe, expect, it } from 'vitest';
import { decodeCsv, readCsv } from './csv';

const COLUMNS = ['name', 'birthYear'] as const;

describe('reading a CSV file', () => {
  it('decodes UTF-8 without its byte-order mark, and Shift_JIS as Excel saves it', () => {
    const utf8 = new TextEncoder().encode('\uFEFF氏名\n').buffer;
    expect(decodeCsv(utf8)).toBe('氏名\n');
    // 氏名 in Shift_JIS: 0x8E 0x81, 0x96 0xBC (not valid UTF-8).
    expect(decodeCsv(new Uint8Array([0x8e, 0x81, 0x96, 0xbc, 0x0a]).buffer)).toBe('氏名\n');
  });

  it('maps headers by key or label (width and case folded), keeps quoted commas, skips blank lines', () => {
    const read = readCsv(
      'ＮＡＭＥ,生年,備考\r\n"山田, 太郎",1980,x\r\n\r\n佐藤,1975,\r\n',
      COLUMNS,
      {
        birthYear: ['生年'],
      },
    );
    expect(read.rows).toEqual([
      { name: '山田, 太郎', birthYear: '1980' },
      { name: '佐藤', birthYear: '1975' },
    ]);
    expect(read.unknownColumns).toEqual(['備考']);
    expect(read.problems).toEqual([]);
  });

  it('names the line of an unclosed quote', () => {
    const read = readCsv('name,birthYear\n"山田,1980\n', COLUMNS);
    expect(read.problems.length).toBeGreaterThan(0);
    expect(read.problems[0]!.line).toBeGreaterThanOrEqual(2);
  });
});
