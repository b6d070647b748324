// Moved to the island kit (src/islands/kit/Dialog.tsx); kept for the imports not moved yet.
export { default } from './kit/Dialog';
export type { DialogProps } from './kit/Dialog';
