import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import { DEFAULT_IGNORABLE_PATTERN, hasInvisibleCharacters, hasStackedMarks, MAX_STACKED_MARKS } from './names.js';
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

describe('stacked marks', () => {
  it('a letter may carry the accents of real names: Vietnamese, pointed Hebrew, Tibetan, Indic and Southeast Asian vowel signs', () => {
    for (const name of ['Nguyễn Thị Ánh', 'Đặng Ngọc Ệ', 'שָּׁלוֹם', 'བསྒྲུབས', 'ကျော်ဇင်', 'ကြွေး', 'हूँ मैं', 'ਪੰਜਾਬੀ', 'தமிழ்', 'ที่รัก', 'ພາສາລາວ', 'Yorùbá ọ̀rẹ́', 'ą́ Navajo', 'Zoë']) {
      expect(hasStackedMarks(name), name).toBe(false);
      expect(usernameSchema.safeParse(name).success, name).toBe(true);
      expect(groupNameSchema.safeParse(name).success, name).toBe(true);
    }
  });

  it(`more than ${MAX_STACKED_MARKS} marks on one letter are refused, precomposed letters counted as their marks`, () => {
    const thirty = `Zo${'\u0301\u0300\u0302'.repeat(10)}`;
    for (const name of [thirty, 'e\u0301\u0302\u0303\u0304', '\u00E9\u0302\u0303\u0304', 'a\u0301\u0903\u0302\u0303\u0304']) {
      expect(hasStackedMarks(name), JSON.stringify(name)).toBe(true);
      expect(usernameSchema.safeParse(name).error?.issues[0]?.message, JSON.stringify(name)).toBe(MESSAGES.nameMarksStacked('Username', MAX_STACKED_MARKS));
      expect(groupNameSchema.safeParse(name).error?.issues[0]?.message, JSON.stringify(name)).toBe(MESSAGES.nameMarksStacked('Group name', MAX_STACKED_MARKS));
    }
    // Three are fine, and so are marks spread over several letters.
    expect(hasStackedMarks('e\u0301\u0302\u0303')).toBe(false);
    expect(hasStackedMarks('e\u0301\u0302e\u0303\u0304')).toBe(false);
  });
});
