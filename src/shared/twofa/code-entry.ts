// The rules of the one-time-code boxes (src/islands/kit/CodeInput.tsx) and of the countdowns the
// code steps show, as pure functions so that they are tested without a browser
// (tests/unit/island-kit.test.ts). Decision 0033.
import type { ApiResult } from '../api';

/** Codes are six digits everywhere (spec 01 section 5). */
export const CODE_LENGTH = 6;
/** Resend cooldown after a successful send (spec 01 section 9). */
export const RESEND_COOLDOWN_SECONDS = 60;

/**
 * Full-width digits (U+FF10..U+FF19, what a Japanese IME types by default) as ASCII digits:
 * "１２３" -> "123". Other characters are kept as they are.
 */
export function toHalfWidthDigits(text: string): string {
  return text.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

/**
 * What the boxes keep of typed or pasted text: its digits, full-width ones converted, at most
 * `length` of them ("１２３ ４５６" and "123-456" both give "123456"; letters are dropped).
 */
export function codeDigits(text: string, length = CODE_LENGTH): string {
  return toHalfWidthDigits(text).replace(/[^0-9]/g, '').slice(0, length);
}

export interface CodeEdit {
  /** The code after the edit (digits only, no gaps). */
  value: string;
  /** The box to focus next. */
  focus: number;
}

/**
 * Text typed or pasted into box `index` (whatever the box then holds, or the clipboard's text):
 * one digit replaces that box's digit and moves on; several (a paste, an SMS autofill) fill the
 * boxes from there on. Nothing usable leaves the code and the focus as they were.
 */
export function typeIntoCode(value: string, index: number, typed: string, length = CODE_LENGTH): CodeEdit {
  const at = Math.min(index, value.length);
  const digits = codeDigits(typed, length);
  if (!digits) return { value, focus: at };
  const next = (value.slice(0, at) + digits + value.slice(at + digits.length)).slice(0, length);
  return { value: next, focus: Math.min(at + digits.length, length - 1) };
}

/**
 * Backspace in box `index`: a box with a digit loses it and keeps the focus; an empty box
 * removes the digit before it and moves back there.
 */
export function backspaceInCode(value: string, index: number): CodeEdit {
  if (index < value.length) return { value: value.slice(0, index) + value.slice(index + 1), focus: index };
  if (value.length === 0) return { value, focus: 0 };
  return { value: value.slice(0, -1), focus: value.length - 1 };
}

/** Whole seconds from `nowMs` until `untilMs` (never negative): the countdowns' arithmetic. */
export function secondsUntil(untilMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((untilMs - nowMs) / 1000));
}

/**
 * Seconds a 429 answer asks the client to wait: until the reset time of `X-RateLimit-Reset` (epoch
 * seconds; spec 01 section 4: "the countdown uses the reset time from the response header"), but
 * never longer than `Retry-After` (the reset is rounded up to a whole second); else `Retry-After`,
 * else the body's `duration`, else a minute.
 */
export function retryAfterSeconds(r: ApiResult<{ duration?: number }>, nowMs = Date.now()): number {
  const after = Number(r.headers.get('Retry-After') ?? NaN);
  const retryAfter = Number.isFinite(after) && after > 0 ? Math.ceil(after) : null;
  const reset = Number(r.headers.get('X-RateLimit-Reset') ?? NaN);
  if (Number.isFinite(reset) && reset > 0) {
    const left = secondsUntil(reset * 1000, nowMs);
    if (left > 0) return retryAfter === null ? left : Math.min(left, retryAfter);
  }
  if (retryAfter !== null) return retryAfter;
  return typeof r.data.duration === 'number' && r.data.duration > 0 ? Math.ceil(r.data.duration) : RESEND_COOLDOWN_SECONDS;
}
