// The stack of open modal dialogs (src/islands/kit/Dialog.tsx): a dialog opened from another is
// above it, and Escape closes only the one on top (a browser asks the topmost modal dialog, but
// a dialog rendered by the server and upgraded later, or two opened in one render, must not
// depend on the order the effects ran in). Pure, so tests/unit/island-kit.test.ts checks it.

export interface DialogStack<K> {
  /** Puts `key` on top (moving it there when it is already open). */
  open(key: K): void;
  /** Takes `key` out wherever it is. */
  close(key: K): void;
  /** Whether `key` is the topmost open dialog. */
  isTop(key: K): boolean;
  /** The open dialogs, bottom first. */
  list(): readonly K[];
}

export function createDialogStack<K>(): DialogStack<K> {
  let items: K[] = [];
  return {
    open(key) {
      items = [...items.filter((k) => k !== key), key];
    },
    close(key) {
      items = items.filter((k) => k !== key);
    },
    isTop(key) {
      return items.length > 0 && items[items.length - 1] === key;
    },
    list() {
      return items;
    },
  };
}
