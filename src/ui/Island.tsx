// Marks an interactive island: the server renders the component with its props, and the browser
// entry hydrates it with the same JSON props (JSON-serialisable only; DESIGN.md section 9).
import { createContext, useContext, type ComponentType } from 'react';
import type { IslandName } from '../island-texts';

export interface IslandCollector {
  /** The islands on the page: the page carries their texts (src/ui/render.tsx). */
  names: Set<IslandName>;
  next: number;
}
export const IslandContext = createContext<IslandCollector | null>(null);

/** JSON that is safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
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
