/**
 * Pure parser/validator for round one's order (no I/O): which team holds each slot. Columns `slot,team`
 * (header required, any order); `team` is one of the 32 (an abbreviation or a name, any case: teams.ts).
 * Slots run from 1 without gaps (round one may be shorter than 32: a forfeited pick). Every bad row is
 * named; nothing is taken unless the whole file is valid. See shared/data/README.md.
 */
import { readCsvRecords, type CsvRowError } from './csv.js';
import { findTeam, type TeamAbbreviation } from './teams.js';

export const ORDER_CSV_COLUMNS = ['slot', 'team'] as const;

export interface OrderRow {
  slot: number;
  team: TeamAbbreviation;
}

export type ParseOrderResult = { ok: true; rows: OrderRow[] } | { ok: false; errors: CsvRowError[] };

export function parseOrderCsv(text: string): ParseOrderResult {
  const errors: CsvRowError[] = [];
  const records = readCsvRecords(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, errors);
  const header = records[0];
  if (header === undefined || header.line !== 1) {
    if (!errors.some((e) => e.row === 1)) errors.unshift({ row: 1, message: `missing header line; expected columns ${ORDER_CSV_COLUMNS.join(', ')}` });
    return { ok: false, errors };
  }
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const expected: readonly string[] = ORDER_CSV_COLUMNS;
  const missing = expected.filter((c) => !names.includes(c));
  const extra = names.filter((n, i) => !expected.includes(n) || names.indexOf(n) !== i).map((n) => (n === '' ? '(empty)' : n));
  if (missing.length > 0 || extra.length > 0) {
    const parts = [missing.length > 0 && `missing column(s): ${missing.join(', ')}`, extra.length > 0 && `unexpected column(s): ${extra.join(', ')}`].filter(Boolean);
    errors.unshift({ row: 1, message: `invalid header (${parts.join('; ')}); expected exactly ${ORDER_CSV_COLUMNS.join(', ')}` });
    return { ok: false, errors };
  }
  const col = { slot: names.indexOf('slot'), team: names.indexOf('team') };

  const rows: (OrderRow & { line: number })[] = [];
  const seen = new Map<number, number>();
  for (const rec of records.slice(1)) {
    const row = rec.line;
    if (rec.fields.length !== names.length) {
      errors.push({ row, message: `expected ${names.length} fields but found ${rec.fields.length}` });
      continue;
    }
    const slotRaw = (rec.fields[col.slot] ?? '').trim();
    const teamRaw = (rec.fields[col.team] ?? '').trim();
    let valid = true;
    const slot = /^\d+$/.test(slotRaw) && Number(slotRaw) > 0 && Number(slotRaw) <= 1000 ? Number(slotRaw) : null;
    if (slot === null) {
      errors.push({ row, message: 'slot must be a positive integer' });
      valid = false;
    } else if (seen.has(slot)) {
      errors.push({ row, message: `duplicate slot ${slot} (already on row ${seen.get(slot)})` });
      valid = false;
    } else seen.set(slot, row);
    const team = findTeam(teamRaw);
    if (!team) {
      errors.push({ row, message: teamRaw === '' ? 'team is required' : `team "${teamRaw}" is not one of the 32 NFL teams (an abbreviation such as SEA, or a name such as Seattle Seahawks)` });
      valid = false;
    }
    if (valid && slot !== null && team) rows.push({ slot, team: team.abbreviation, line: row });
  }
  if (records.length === 1) errors.push({ row: 2, message: 'the file has no data rows; at least slot 1 is required' });
  if (errors.length > 0) return { ok: false, errors: errors.sort((a, b) => a.row - b.row) };

  rows.sort((a, b) => a.slot - b.slot);
  const gap = rows.findIndex((r, i) => r.slot !== i + 1);
  if (gap >= 0) return { ok: false, errors: [{ row: rows[gap]!.line, message: `slots must run from 1 without gaps: slot ${gap + 1} is missing` }] };
  return { ok: true, rows: rows.map(({ slot, team }) => ({ slot, team })) };
}
