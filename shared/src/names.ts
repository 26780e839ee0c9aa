/**
 * Names people see (usernames, screen names, group names): which characters they may hold, and the key
 * two names are compared by, so that one name cannot pass for another on a leaderboard.
 */
import { BENCHMARKS } from './benchmark-entries.js';

/**
 * Unicode's Default_Ignorable_Code_Point set, written out (Unicode 17, DerivedCoreProperties.txt):
 * characters a renderer is told to draw as nothing. Soft hyphen, the combining grapheme joiner, the
 * Arabic letter mark, the Hangul fillers, the Khmer inherent vowels, the Mongolian variation selectors
 * and vowel separator, zero-width spaces and joiners, direction marks, embeddings and overrides, the
 * word joiner and invisible operators, isolates, variation selectors 1–16 and 17–256, the byte-order
 * mark, the reserved U+FFF0–FFF8, the shorthand format controls, the musical beams and the tag block.
 * Written out rather than `\p{Default_Ignorable_Code_Point}`: browsers and Node ship different Unicode
 * versions, and the server and the form must refuse the same names (a test holds the list equal to
 * Node's own property).
 */
const DEFAULT_IGNORABLE =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164' +
  '\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}';

/**
 * Beyond the default ignorables: control (Cc) and format (Cf) characters, line and paragraph separators,
 * lone surrogates (Cs), private-use characters (Co) and the braille blank (U+2800, a letter that draws
 * nothing). Unassigned code points outside the ranges above are not refused: browsers and Node can
 * disagree on which are assigned.
 */
const OTHER_INVISIBLE = '\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}\\p{Cs}\\p{Co}\\u2800';

const INVISIBLE_CLASS = `[${DEFAULT_IGNORABLE}${OTHER_INVISIBLE}]`;
/*
 * The classes below hold combining code points (the grapheme joiner, variation selectors) on purpose:
 * each is matched on its own, which is what finding them requires, not a character class misread.
 */
/** The default ignorables alone (for the test that holds the list equal to Unicode's). */
// eslint-disable-next-line no-misleading-character-class -- combining code points matched one by one, on purpose (above)
export const DEFAULT_IGNORABLE_PATTERN = new RegExp(`[${DEFAULT_IGNORABLE}]`, 'u');
// eslint-disable-next-line no-misleading-character-class -- as above
const INVISIBLE = new RegExp(INVISIBLE_CLASS, 'u');
// eslint-disable-next-line no-misleading-character-class -- as above
const INVISIBLE_ALL = new RegExp(INVISIBLE_CLASS, 'gu');
/** What separates words in a name and changes nothing about who it names: spaces of every kind and punctuation. */
const SEPARATORS = /[\p{White_Space}\p{Z}\p{P}]/gu;

/** Whether the text holds a character that is invisible or could reorder or disguise what is shown. */
export const hasInvisibleCharacters = (text: string): boolean => INVISIBLE.test(text);

/**
 * The key two names are compared by: NFKC (compatibility forms: full-width, ligatures, superscripts),
 * case-folded (upper then lower, so ß folds to ss and the dotless ı to i), with invisible characters,
 * spaces and punctuation left out. 'Big Board top-32', 'BigBoard Top32' and 'ｂｉｇｂｏａｒｄｔｏｐ３２' share
 * one key. A name of punctuation only ('--') keys as itself, folded, rather than as nothing.
 */
export function nameKey(name: string): string {
  const folded = name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC').replace(INVISIBLE_ALL, '');
  return folded.replace(SEPARATORS, '') || folded;
}

/**
 * Names no player may take: the reference entries shown beside every leaderboard (benchmark-entries.ts).
 * A player called 'Chalk 20' would pass for one of them.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(BENCHMARKS.map((b) => nameKey(b.name)));

/** Whether a player's name would pass for a reference entry's (compared by `nameKey`). */
export const isReservedName = (name: string): boolean => RESERVED_KEYS.has(nameKey(name));
