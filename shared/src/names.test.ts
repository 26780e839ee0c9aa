import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from './benchmark-entries.js';
import { DEFAULT_IGNORABLE_PATTERN, hasInvisibleCharacters, isReservedName, nameKey } from './names.js';
import { groupNameSchema, usernameSchema } from './schemas.js';

const everyCodePoint = function* () {
  for (let cp = 0; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) yield cp;
};

describe('invisible characters', () => {
  it("the written-out list is exactly Unicode's Default_Ignorable_Code_Point as this Node knows it", () => {
    const unicode = /\p{Default_Ignorable_Code_Point}/u;
    const differ: string[] = [];
    for (const cp of everyCodePoint()) {
      const ch = String.fromCodePoint(cp);
      if (DEFAULT_IGNORABLE_PATTERN.test(ch) !== unicode.test(ch)) differ.push(`U+${cp.toString(16).toUpperCase()}`);
    }
    expect(differ).toEqual([]);
  });

  it('every default ignorable is refused in a name, and so are variation selectors, tags and fillers that were accepted before', () => {
    for (const cp of everyCodePoint()) {
      const ch = String.fromCodePoint(cp);
      if (DEFAULT_IGNORABLE_PATTERN.test(ch)) expect(hasInvisibleCharacters(`a${ch}b`), `U+${cp.toString(16)}`).toBe(true);
    }
    for (const name of ['OperatorRT\uFE0F', 'Op\u{E0100}', 'Op\u17B4x', 'Op\u180Bx', 'Op\uFFF0x', 'Op\u{E0041}x', 'Op\u2800x', 'Op\u200Dx']) {
      expect(usernameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
      expect(groupNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
    }
  });

  it('visible names pass: accents, other scripts, emoji without a presentation selector', () => {
    for (const name of ['José', 'Zoë Ørsted', '李小龍', 'Ана', 'Go Bears 🐻', 'O’Neil', 'Chalk 20 Hater']) {
      expect(hasInvisibleCharacters(name), name).toBe(false);
      expect(usernameSchema.safeParse(name).success, name).toBe(true);
    }
  });
});

describe('nameKey', () => {
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

describe('reserved names', () => {
  it("every reference entry's name, however it is spelt", () => {
    for (const { name } of BENCHMARKS) {
      expect(isReservedName(name), name).toBe(true);
      expect(isReservedName(name.toUpperCase().replace(/ /g, '-')), name).toBe(true);
    }
    for (const name of ['BigBoard Top32', 'big board top-32', 'CHALK20', 'Chalk  20', 'top10only', 'Top 10 Only.']) expect(isReservedName(name), name).toBe(true);
  });

  it('names that only contain one are free', () => {
    for (const name of ['Chalk 20 Hater', 'Top 10 only please', 'Big board top 31', 'Chalk']) expect(isReservedName(name), name).toBe(false);
  });
});
