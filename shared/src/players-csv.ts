/**
 * Pure parser/validator for "big board" CSV files (no I/O).
 *
 * Expected header (any column order): rank,player_name,position,school, optionally band.
 * See shared/data/README.md for the file format.
 */

import { readCsvRecords, type CsvRowError } from './csv.js';
import { parseBand, type RiskBand } from './risk-bands.js';

export type { CsvRowError } from './csv.js';

export const PLAYER_POSITIONS = [
  'QB',
  'WR',
  'RB',
  'TE',
  'OT',
  'OL',
  'IOL',
  'DL',
  'EDGE',
  'LB',
  'CB',
  'S',
] as const;

export type PlayerPosition = (typeof PLAYER_POSITIONS)[number];

export const BOARD_CSV_COLUMNS = ['rank', 'player_name', 'position', 'school'] as const;
/** Columns a board may add: `band` sets a player's risk band (blank: by rank). */
export const OPTIONAL_BOARD_CSV_COLUMNS = ['band'] as const;

export const MAX_PLAYER_NAME_LENGTH = 100;
export const MAX_SCHOOL_LENGTH = 100;

export interface BoardRow {
  rank: number;
  player_name: string;
  position: string;
  school: string;
  /** Only when the file names it; otherwise the band follows the rank. */
  band?: RiskBand;
}

export type ParseBoardResult = { ok: true; rows: BoardRow[] } | { ok: false; errors: CsvRowError[] };

const POSITION_SET: ReadonlySet<string> = new Set(PLAYER_POSITIONS);

function validatePosition(raw: string): { value: string } | { error: string } {
  if (raw === '') return { error: 'position is required' };
  const parts = raw.split('/').map((p) => p.trim().toUpperCase());
  const seen = new Set<string>();
  for (const part of parts) {
    if (part === '') {
      return { error: `position "${raw}" has an empty part; use codes like CB/WR` };
    }
    if (!POSITION_SET.has(part)) {
      return { error: `position "${part}" is not one of ${PLAYER_POSITIONS.join(', ')}` };
    }
    if (seen.has(part)) {
      return { error: `position "${part}" is repeated in "${raw}"` };
    }
    seen.add(part);
  }
  return { value: parts.join('/') };
}

/** Parses and validates a big-board CSV. Collects every error rather than stopping at the first. */
export function parseBoardCsv(text: string): ParseBoardResult {
  const errors: CsvRowError[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records = readCsvRecords(body, errors);

  const header = records[0];
  if (header === undefined || header.line !== 1) {
    // Either an empty file or the first line was blank / unparseable.
    if (!errors.some((e) => e.row === 1)) {
      errors.unshift({
        row: 1,
        message: `missing header line; expected columns ${BOARD_CSV_COLUMNS.join(', ')}`,
      });
    }
    return { ok: false, errors };
  }

  // --- header ---
  const headerNames = header.fields.map((f) => f.trim().toLowerCase());
  const expected: readonly string[] = BOARD_CSV_COLUMNS;
  const allowed: readonly string[] = [...BOARD_CSV_COLUMNS, ...OPTIONAL_BOARD_CSV_COLUMNS];
  const missing = expected.filter((c) => !headerNames.includes(c));
  const extra: string[] = [];
  const seenHeader = new Set<string>();
  for (const name of headerNames) {
    if (!allowed.includes(name) || seenHeader.has(name)) extra.push(name === '' ? '(empty)' : name);
    seenHeader.add(name);
  }
  if (missing.length > 0 || extra.length > 0) {
    const parts: string[] = [];
    if (missing.length > 0) parts.push(`missing column(s): ${missing.join(', ')}`);
    if (extra.length > 0) parts.push(`unexpected column(s): ${extra.join(', ')}`);
    errors.unshift({
      row: 1,
      message: `invalid header (${parts.join('; ')}); expected exactly ${BOARD_CSV_COLUMNS.join(', ')} (and optionally ${OPTIONAL_BOARD_CSV_COLUMNS.join(', ')})`,
    });
    return { ok: false, errors };
  }
  const col = {
    rank: headerNames.indexOf('rank'),
    player_name: headerNames.indexOf('player_name'),
    position: headerNames.indexOf('position'),
    school: headerNames.indexOf('school'),
    band: headerNames.indexOf('band'),
  };

  // --- data rows ---
  const rows: BoardRow[] = [];
  const rankSeen = new Map<number, number>();
  const nameSeen = new Map<string, number>();
  const dataRecords = records.slice(1);

  for (const rec of dataRecords) {
    const row = rec.line;
    if (rec.fields.length !== headerNames.length) {
      errors.push({
        row,
        message: `expected ${headerNames.length} fields but found ${rec.fields.length}`,
      });
      continue;
    }
    const get = (idx: number): string => (rec.fields[idx] ?? '').trim();
    const rankRaw = get(col.rank);
    const name = get(col.player_name);
    const positionRaw = get(col.position);
    const school = get(col.school);
    const bandRaw = col.band < 0 ? '' : get(col.band);
    let valid = true;

    let rank = 0;
    if (/^\d+$/.test(rankRaw) && Number(rankRaw) > 0 && Number.isSafeInteger(Number(rankRaw))) {
      rank = Number(rankRaw);
      const earlier = rankSeen.get(rank);
      if (earlier !== undefined) {
        errors.push({ row, message: `duplicate rank ${rank} (already used on row ${earlier})` });
        valid = false;
      } else {
        rankSeen.set(rank, row);
      }
    } else {
      errors.push({ row, message: 'rank must be a positive integer' });
      valid = false;
    }

    if (name === '') {
      errors.push({ row, message: 'player_name is required' });
      valid = false;
    } else if (name.length > MAX_PLAYER_NAME_LENGTH) {
      errors.push({
        row,
        message: `player_name must be at most ${MAX_PLAYER_NAME_LENGTH} characters`,
      });
      valid = false;
    } else {
      const key = name.toLowerCase();
      const earlier = nameSeen.get(key);
      if (earlier !== undefined) {
        errors.push({
          row,
          message: `duplicate player_name "${name}" (already on row ${earlier})`,
        });
        valid = false;
      } else {
        nameSeen.set(key, row);
      }
    }

    const pos = validatePosition(positionRaw);
    if ('error' in pos) {
      errors.push({ row, message: pos.error });
      valid = false;
    }

    if (school === '') {
      errors.push({ row, message: 'school is required' });
      valid = false;
    } else if (school.length > MAX_SCHOOL_LENGTH) {
      errors.push({ row, message: `school must be at most ${MAX_SCHOOL_LENGTH} characters` });
      valid = false;
    }

    const band = bandRaw === '' ? undefined : parseBand(bandRaw);
    if (band === null) {
      errors.push({ row, message: `band "${bandRaw}" is not one of safe, bubble, long shot (or blank for the rank's band)` });
      valid = false;
    }

    if (valid && 'value' in pos) {
      rows.push({ rank, player_name: name, position: pos.value, school, ...(band ? { band } : {}) });
    }
  }

  if (dataRecords.length === 0) {
    errors.push({ row: 2, message: 'the file has no data rows; at least one player is required' });
  }

  if (errors.length > 0) {
    errors.sort((a, b) => a.row - b.row);
    return { ok: false, errors };
  }
  return { ok: true, rows };
}
