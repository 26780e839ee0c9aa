/**
 * The screen-name key as Migration20270104000000_screen_name_key computed it, kept here word for word so
 * that migration (and the later one's down, which puts these keys back) does what it did when it was
 * written, whatever shared/src/name-keys.ts becomes: NFKC, case-folded (upper then lower), without
 * invisible characters, spaces or punctuation; a name of punctuation only keys as itself.
 */

/** Unicode 17's Default_Ignorable_Code_Point set, as names.ts wrote it out then. */
const DEFAULT_IGNORABLE =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164' +
  '\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}';
const OTHER_INVISIBLE = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Co}\\u2800';
// eslint-disable-next-line no-misleading-character-class -- combining code points matched one by one, on purpose
const INVISIBLE_ALL = new RegExp(`[${DEFAULT_IGNORABLE}${OTHER_INVISIBLE}]`, 'gu');
const SEPARATORS = /[\p{White_Space}\p{Z}\p{P}]/gu;

export function legacyNameKey(name: string): string {
  const folded = name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(INVISIBLE_ALL, '');
  return folded.replace(SEPARATORS, '') || folded;
}
