import { UAParser } from 'ua-parser-js';

export interface AgentInfo {
  device: string;
  os: string | null;
  browser: string | null;
  isNextaMeishiApp: boolean;
}

// The last headers parsed, and what they gave: the parser runs dozens of expressions per header,
// and the activity log shows the same few browsers on every row (the result is a pure function of
// the header and decides nothing).
const recent = new Map<string, Readonly<AgentInfo>>();
const RECENT_MAX = 256;
/** Longer headers are parsed every time: real browsers send 100-300 characters. */
const CACHED_LENGTH_MAX = 512;

/** Device, OS and browser from a User-Agent header, with a real parser (ua-parser-js). */
export function parseAgent(ua: string | null | undefined): Readonly<AgentInfo> {
  const header = ua ?? '';
  if (header.length > CACHED_LENGTH_MAX) return parse(header);
  let info = recent.get(header);
  if (!info) {
    info = Object.freeze(parse(header));
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
    recent.set(header, info);
  }
  return info;
}

function parse(ua: string): AgentInfo {
  const r = new UAParser(ua).getResult();
  const device = [r.device.vendor, r.device.model].filter(Boolean).join(' ') || (r.device.type ?? 'desktop');
  const join = (name?: string, version?: string) => (name ? [name, version].filter(Boolean).join(' ') : null);
  return {
    device,
    os: join(r.os.name, r.os.version),
    browser: join(r.browser.name, r.browser.major),
    isNextaMeishiApp: /NextaMeishi/i.test(ua),
  };
}
