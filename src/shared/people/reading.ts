// A person's reading (フリガナ), decision 0045. Kept in katakana, the form Japanese HR files and
// forms use: NFKC turns half-width ｶﾀｶﾅ (old Shift_JIS exports) into full-width and the ideographic
// space into a plain one, hiragana becomes katakana, runs of spaces become one. What is left must be
// katakana, the prolonged sound mark, the middle dot or spaces, so the list can sort by it.

export const READING_MAX = 100;

const HIRAGANA = /[\u3041-\u3096\u309D\u309E]/gu;
const KATAKANA_ONLY = /^[\u30A1-\u30FA\u30FC-\u30FE\u31F0-\u31FF ・]+$/u;

/** The reading as stored: normalised, '' when blank. */
export function normaliseReading(value: string): string {
  return value
    .normalize('NFKC')
    .replace(HIRAGANA, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60))
    .replace(/\s+/gu, ' ')
    .trim();
}

/** An i18n key when the (normalised) reading cannot be kept, else null; '' is fine (none). */
export function readingProblem(normalised: string): 'people.validation.readingKana' | 'people.validation.readingTooLong' | null {
  if (normalised === '') return null;
  if ([...normalised].length > READING_MAX) return 'people.validation.readingTooLong';
  return KATAKANA_ONLY.test(normalised) ? null : 'people.validation.readingKana';
}
