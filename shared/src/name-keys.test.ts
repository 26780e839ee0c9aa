import { describe, expect, it } from 'vitest';
import confusables from '../data/confusables-17.0.0.json';
import { BENCHMARKS } from './benchmark-entries.js';
import { CONFUSABLES_VERSION, isReservedName, keysOf, nameKeys, skeleton } from './name-keys.js';

const nameKey = (name: string) => nameKeys(name).fold;
/** Whether `a` passes for `b` as the server compares them: either key of one is either key of the other. */
const passesFor = (a: string, b: string) => keysOf(a).some((key) => keysOf(b).includes(key));

describe('the fold key', () => {
  it('reads past case, width, compatibility forms, spaces, punctuation and invisible characters', () => {
    const key = nameKey('operatorrt');
    for (const name of ['Operator RT', 'OPERATOR-rt', 'operator.rt', 'Operator_RT', 'ＯｐｅｒａｔｏｒＲＴ', 'Operator\u00A0RT', 'OperatorRT\uFE0F', 'Oper\u200Bator RT']) {
      expect(nameKey(name), name).toBe(key);
    }
    expect(nameKey('Straße')).toBe(nameKey('STRASSE'));
    expect(nameKey('ﬁsh')).toBe('fish');
    expect(nameKey('Top²')).toBe('top2');
  });

  it('tells different names apart', () => {
    expect(nameKey('Jo Smith')).not.toBe(nameKey('Jon Smith'));
    expect(nameKey('José')).not.toBe(nameKey('Jose'));
    expect(nameKey('Go Bears 🐻')).not.toBe(nameKey('Go Bears'));
  });

  it('a name of punctuation only keys as itself rather than as nothing', () => {
    expect(nameKey('--')).toBe('--');
    expect(nameKey('..')).not.toBe(nameKey('--'));
  });
});

describe('look-alikes', () => {
  it('letters of another script, digits and letters that look alike, and digits of another script pass for the name', () => {
    const lookalikes: [string, string][] = [
      ['Сhalk 20', 'Chalk 20'], // Cyrillic С
      ['Chalk 2O', 'Chalk 20'], // the letter O for a zero
      ['Top 10 οnly', 'Top 10 only'], // Greek ο
      ['Chalk ٢٠', 'Chalk 20'], // Arabic-Indic digits
      ['Chalk २०', 'Chalk 20'], // Devanagari digits
      ['аlice400877', 'alice400877'], // Cyrillic а
      ['aIice400877', 'alice400877'], // a capital i for an l
      ['a1ice400877', 'alice400877'], // a one for an l
      ['Glоbal', 'Global'], // Cyrillic о
      ['ALICE', 'alice'],
      ['АLICE', 'alice'], // Cyrillic А
      ['ΑLICE', 'alice'], // Greek Α
    ];
    for (const [lookalike, name] of lookalikes) expect(passesFor(lookalike, name), `${lookalike} ~ ${name}`).toBe(true);
  });

  it('names with other letters stay apart: an accent, one letter more, another word', () => {
    for (const [a, b] of [
      ['José', 'Jose'],
      ['Jo Smith', 'Jon Smith'],
      ['Zoë', 'Zoe'],
      ['Chalk 20 Hater', 'Chalk 20'],
      ['李小龍', '李小虎'],
      ['Ана', 'Аня'],
      ['Go Bears 🐻', 'Go Bears'],
    ]) {
      expect(passesFor(a!, b!), `${a} / ${b}`).toBe(false);
    }
  });

  it('case-insensitive and look-alike at once: aIice is alice as written, AIICE only aiice folded', () => {
    expect(nameKeys('aIice')).toEqual({ fold: 'aiice', glyph: 'alice' });
    expect(nameKeys('alice')).toEqual({ fold: 'alice', glyph: 'alice' });
    expect(passesFor('AIICE', 'aIice')).toBe(true);
    expect(passesFor('aiice', 'alice')).toBe(false);
  });

  it("is Unicode's skeleton: NFD, each code point by its prototype, NFD again", () => {
    expect(skeleton('1Il|')).toBe('llll');
    expect(skeleton('0')).toBe('O');
    expect(skeleton('m')).toBe('rn');
    expect(skeleton('é')).toBe('e\u0301');
    // ö is not mapped itself (its table entry is the Arabic teh marbuta): NFD first leaves o and its diaeresis.
    expect(skeleton('ö')).toBe('o\u0308');
    expect(skeleton('Сhalk')).toBe('Chalk');
  });
});

describe('reserved names', () => {
  it("every reference entry's name, however it is spelt", () => {
    for (const { name } of BENCHMARKS) {
      expect(isReservedName(name), name).toBe(true);
      expect(isReservedName(name.toUpperCase().replace(/ /g, '-')), name).toBe(true);
    }
    for (const name of ['BigBoard Top32', 'big board top-32', 'CHALK20', 'Chalk  20', 'top10only', 'Top 10 Only.']) expect(isReservedName(name), name).toBe(true);
  });

  it('and in look-alike letters and digits', () => {
    for (const name of ['Сhalk 20', 'Chalk 2O', 'Top 10 οnly', 'Chalk ٢٠', 'Top lO only', 'Big bоard top 32', 'CHALK 2O']) expect(isReservedName(name), name).toBe(true);
  });

  it('names that only contain one are free', () => {
    for (const name of ['Chalk 20 Hater', 'Top 10 only please', 'Big board top 31', 'Chalk']) expect(isReservedName(name), name).toBe(false);
  });
});

describe("Unicode's table of look-alikes (shared/data/confusables-17.0.0.json)", () => {
  it("is confusables.txt of Unicode 17.0.0, its header (date, copyright, terms) kept", () => {
    expect(CONFUSABLES_VERSION).toBe('17.0.0');
    expect(confusables.header).toEqual(
      expect.arrayContaining([
        'confusables.txt',
        'Date: 2025-07-22, 05:49:37 GMT',
        '© 2025 Unicode®, Inc.',
        'For terms of use and license, see https://www.unicode.org/terms_of_use.html',
        'Version: 17.0.0',
      ]),
    );
    expect(confusables.count).toBe(6565);
    expect(Object.keys(confusables.prototypes)).toHaveLength(6565);
  });

  it('holds the mappings the keys rely on', () => {
    const prototypes: Record<string, string> = confusables.prototypes;
    expect(prototypes['0031']).toBe('006C'); // 1 → l
    expect(prototypes['0049']).toBe('006C'); // I → l
    expect(prototypes['0030']).toBe('004F'); // 0 → O
    expect(prototypes['006D']).toBe('0072 006E'); // m → rn
    expect(prototypes['0430']).toBe('0061'); // Cyrillic а → a
    expect(prototypes['0421']).toBe('0043'); // Cyrillic С → C
    expect(prototypes['03BF']).toBe('006F'); // Greek ο → o
    expect(prototypes['0660']).toBe('002E'); // Arabic-Indic zero → '.', hence the digits read by their value first
    expect(prototypes['0662']).toBeUndefined();
  });
});
