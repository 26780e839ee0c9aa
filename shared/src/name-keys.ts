/**
 * The keys two names are compared by, so that one name cannot pass for another on a leaderboard or in a
 * list of groups: not by case, width, spacing, punctuation or invisible characters ('Operator RT' is
 * 'operatorrt'), nor by letters of another script or digits that look the same ('Сhalk 20' with a Cyrillic
 * С, 'Chalk 2O', 'Chalk ٢٠', 'аlice' with a Cyrillic а, 'aIice' with a capital i).
 *
 * The server's alone: Unicode's table of look-alikes (shared/data/confusables-17.0.0.json, made by
 * `npm run confusables`) stays out of the web app, which loads names.ts but never this module.
 *
 * Look-alikes follow Unicode's skeleton (UTS #39, "Confusable Detection"): NFD, every code point replaced by
 * its prototype ('1' and 'I' by 'l', '0' by 'O', Cyrillic 'а' by 'a', 'm' by 'rn'), NFD again. Case is
 * where one key cannot do: 'aIice' passes for 'alice' only as written (a capital i looks like an l), yet
 * 'ALICE' must be 'alice'; folding case first makes 'aIice' 'aiice', and not folding it keeps 'ALICE' apart
 * from 'alice'. So a name has two keys, each unique in the database:
 * - the fold key: case folded, then the skeleton (case and look-alike letters of another script:
 *   'ALICE', 'Straße'/'STRASSE', 'Сhalk 20');
 * - the glyph key: the skeleton of the name as written, then lower case (letters that look alike only in
 *   the case written: 'aIice', 'Chalk 2O').
 * A name is taken when either of its keys is either key of another's.
 */
import confusables from '../data/confusables-17.0.0.json';
import { BENCHMARKS } from './benchmark-entries.js';
import { withoutInvisible, withoutSeparators } from './names.js';

/** Source code point → its prototype (the table's hexadecimal, read once). */
const PROTOTYPES: ReadonlyMap<number, string> = new Map(
  Object.entries(confusables.prototypes).map(([source, prototype]) => [
    parseInt(source, 16),
    String.fromCodePoint(...prototype.split(' ').map((cp) => parseInt(cp, 16))),
  ]),
);

/** The Unicode version of the table the skeleton reads. */
export const CONFUSABLES_VERSION = confusables.version;

/** UTS #39's skeleton: NFD, each code point replaced by its prototype, NFD again. */
export function skeleton(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFD')) out += PROTOTYPES.get(ch.codePointAt(0)!) ?? ch;
  return out.normalize('NFD');
}

const DECIMAL_DIGIT = /\p{Nd}/u;
const NON_ASCII_DIGITS = /[^\P{Nd}0-9]/gu;

/**
 * A decimal digit of any script as its ASCII digit. Unicode encodes each script's digits as a run of ten
 * code points from zero to nine, so a digit's value is its place in its run (mod 10, for the runs of
 * mathematical digits set end to end). Unicode's table has no such mapping: it maps Arabic-Indic '٠' to
 * '.' and '٢' to nothing, so 'Chalk ٢٠' would not pass for 'Chalk 20'.
 */
function asciiDigit(digit: string): string {
  const cp = digit.codePointAt(0)!;
  let start = cp;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

/** What both keys start from: compatibility forms (NFKC: width, ligatures, superscripts), no invisible characters, ASCII digits. */
const prepare = (name: string) => withoutInvisible(name.normalize('NFKC')).replace(NON_ASCII_DIGITS, asciiDigit);

/** Case folded: upper then lower, so 'ß' folds to 'ss' and the dotless 'ı' to 'i'. */
const foldCase = (text: string) => text.toUpperCase().toLowerCase().normalize('NFKC');

/** Spaces and punctuation left out; a name of punctuation only ('--') keeps it rather than keying as nothing. */
const stripped = (text: string) => withoutSeparators(text) || text;

export interface NameKeys {
  /** Case folded, then the skeleton: 'ALICE', 'alice' and 'аlice' (Cyrillic а) share it. */
  fold: string;
  /** The skeleton of the name as written, lower-cased: 'aIice' (capital i) and 'alice' share it. */
  glyph: string;
}

/** The two keys of a name (above). 'Big Board top-32', 'BigBoard Top32' and 'ｂｉｇｂｏａｒｄｔｏｐ３２' share both. */
export function nameKeys(name: string): NameKeys {
  const prepared = prepare(name);
  return {
    fold: stripped(skeleton(foldCase(prepared)).toLowerCase()),
    glyph: stripped(skeleton(prepared).toLowerCase()),
  };
}

/** The keys to look for when a name is offered: a name is taken by anyone holding either of them, in either column. */
export const keysOf = (name: string): string[] => {
  const { fold, glyph } = nameKeys(name);
  return fold === glyph ? [fold] : [fold, glyph];
};

/**
 * Names no player may take: the reference entries shown beside every leaderboard (benchmark-entries.ts).
 * A player called 'Chalk 20', 'Сhalk 20' or 'Chalk 2O' would pass for one of them.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(BENCHMARKS.flatMap((b) => keysOf(b.name)));

/** Whether a player's name would pass for a reference entry's (either key of it is either key of theirs). */
export const isReservedName = (name: string): boolean => keysOf(name).some((key) => RESERVED_KEYS.has(key));
