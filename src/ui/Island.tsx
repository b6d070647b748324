// Marks an interactive island: the server renders the component with its props, and the browser
// entry hydrates it with the same JSON props (JSON-serialisable only; DESIGN.md section 9).
import { createContext, useContext, type ComponentType } from 'react';
import type { IslandName } from '../island-texts';

export interface IslandCollector {
  /** The islands on the page: the page carries their texts (src/ui/render.tsx). */
  names: Set<IslandName>;
  next: number;
  /** The page's body is a Frame (ui/Frame.tsx): its kept HTML goes around the rendered body. */
  framed?: boolean;
  /** That frame, rendered apart and kept. */
  frame?: FrameChrome;
}

/** The frame's HTML before and after the page's part of <main>, and the islands in it. */
export interface FrameChrome {
  before: string;
  after: string;
  names: IslandName[];
  islands: number;
}
export const IslandContext = createContext<IslandCollector | null>(null);

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const escapeForScript = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON that is safe inside a <script> element (one pass over the text: it is every page's props). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(SCRIPT_UNSAFE, escapeForScript);
}

export function Island<P extends object>({
  name,
  component: Component,
  props,
}: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  const collector = useContext(IslandContext);
  if (!collector) throw new Error('Island rendered outside a page');
  collector.names.add(name);
  const id = `island-${collector.next++}`;
  return (
    <>
      <script type="application/json" id={`${id}-props`} dangerouslySetInnerHTML={{ __html: scriptJson(props) }} />
      <div data-island={name} data-island-id={id} className="contents">
        <Component {...props} />
      </div>
    </>
  );
}
