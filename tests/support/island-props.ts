// The JSON props a server page gives an island (what it renders on the server and hydrates with),
// read from the page's HTML as the browser's island loader reads them (src/ui/Island.tsx).
export function islandProps(html: string, island: string): Record<string, any> {
  const id = new RegExp(`data-island="${island}" data-island-id="([^"]+)"`).exec(html)?.[1];
  const json = new RegExp(`<script type="application/json" id="${id}-props">(.*?)</script>`).exec(html)?.[1];
  if (!json) throw new Error(`no ${island} on the page`);
  return JSON.parse(json);
}
