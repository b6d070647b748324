// The reading (フリガナ) as kept (decision 0045): one katakana form whatever HR files hold.
import { describe, expect, it } from 'vitest';
import { normaliseReading, readingProblem } from '../../src/shared/people/reading';

describe('readings', () => {
  it('turns hiragana, half-width kana and ideographic spaces into one katakana form', () => {
    expect(normaliseReading('やまだ　たろう')).toBe('ヤマダ タロウ');
    expect(normaliseReading(' ﾔﾏﾀﾞ  ﾀﾛｰ ')).toBe('ヤマダ タロー');
    expect(normaliseReading('ゔぁいおりん')).toBe('ヴァイオリン');
    expect(normaliseReading('')).toBe('');
  });
  it('accepts katakana, ー, ・ and spaces only, up to 100 characters', () => {
    expect(readingProblem('ヤマダ タロウ')).toBeNull();
    expect(readingProblem('ジョン・スミス')).toBeNull();
    expect(readingProblem('')).toBeNull();
    expect(readingProblem('山田')).toBe('people.validation.readingKana');
    expect(readingProblem('Yamada')).toBe('people.validation.readingKana');
    expect(readingProblem('ア'.repeat(100))).toBeNull();
    expect(readingProblem('ア'.repeat(101))).toBe('people.validation.readingTooLong');
  });
});
