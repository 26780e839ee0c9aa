/**
 * The CSV reading every bundled and imported file shares (no I/O): the big board (players-csv.ts) and round
 * one's order (order-csv.ts). Files are validated whole; errors name their 1-based line.
 */

export interface CsvRowError {
  /** 1-based line number in the file (the header is line 1). */
  row: number;
  message: string;
}

export interface CsvRecord {
  /** 1-based line on which the record starts. */
  line: number;
  fields: string[];
}

/**
 * Splits CSV text into records (RFC 4180 style: double-quoted fields, "" escapes,
 * commas and line breaks allowed inside quotes; CRLF, LF or lone CR line endings).
 * Syntax problems are appended to `errors`; a record with a syntax error is dropped.
 */
export function readCsvRecords(text: string, errors: CsvRowError[]): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;

  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let recordError: string | null = null;
    let field: string;
    let endOfRecord = false;

    while (!endOfRecord) {
      // Start of a field.
      field = '';
      if (i < n && text[i] === '"') {
        // Quoted field.
        i++;
        let closed = false;
        while (i < n) {
          const ch = text[i];
          if (ch === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
            } else {
              i++;
              closed = true;
              break;
            }
          } else {
            if (ch === '\r') {
              line++;
              if (text[i + 1] === '\n') {
                field += '\r\n';
                i += 2;
                continue;
              }
            } else if (ch === '\n') {
              line++;
            }
            field += ch;
            i++;
          }
        }
        if (!closed) {
          recordError ??= 'unterminated quoted field';
        }
        // After the closing quote only a delimiter, a line break or EOF may follow.
        if (closed && i < n && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
          recordError ??= 'unexpected character after closing quote';
          // Skip to the next delimiter / line break.
          while (i < n && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
            field += text[i];
            i++;
          }
        }
      } else {
        // Unquoted field.
        while (i < n) {
          const ch = text[i];
          if (ch === ',' || ch === '\r' || ch === '\n') break;
          if (ch === '"') recordError ??= 'unexpected double quote in unquoted field';
          field += ch;
          i++;
        }
      }
      fields.push(field);

      // Delimiter handling.
      if (i >= n) {
        endOfRecord = true;
      } else if (text[i] === ',') {
        i++;
      } else {
        // Line break.
        if (text[i] === '\r' && text[i + 1] === '\n') i += 2;
        else i++;
        line++;
        endOfRecord = true;
      }
    }

    if (recordError !== null) {
      errors.push({ row: startLine, message: recordError });
      continue;
    }
    // Skip blank lines (including a trailing empty/whitespace-only line).
    const only = fields[0];
    if (fields.length === 1 && only !== undefined && only.trim() === '') continue;
    records.push({ line: startLine, fields });
  }

  return records;
}

