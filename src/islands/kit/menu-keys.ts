// The keys of a menu (WAI-ARIA APG menu pattern): ↓ and ↑ move to the next and previous item
// (wrapping), Home and End to the first and last. Used by the toolbar's menus and the tables' row
// menus; each handles Escape and Tab itself.
import type { KeyboardEvent } from 'react';

/** Moves the focus among `items` for an arrow, Home or End key; other keys pass. */
export function moveMenuFocus(e: KeyboardEvent<HTMLElement>, items: HTMLElement[]): void {
  if (items.length === 0) return;
  const i = items.indexOf(document.activeElement as HTMLElement);
  const go = (n: number) => {
    e.preventDefault();
    items[(n + items.length) % items.length]!.focus();
  };
  if (e.key === 'ArrowDown') go(i + 1);
  else if (e.key === 'ArrowUp') go(i < 0 ? -1 : i - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(-1);
}
