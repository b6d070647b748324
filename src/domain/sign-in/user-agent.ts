import { UAParser } from 'ua-parser-js';

export interface AgentInfo {
  device: string;
  os: string | null;
  browser: string | null;
  isNextaMeishiApp: boolean;
}

/** Device, OS and browser from a User-Agent header, with a real parser (ua-parser-js). */
export function parseAgent(ua: string | null | undefined): AgentInfo {
  const r = new UAParser(ua ?? '').getResult();
  const device = [r.device.vendor, r.device.model].filter(Boolean).join(' ') || (r.device.type ?? 'desktop');
  const join = (name?: string, version?: string) => (name ? [name, version].filter(Boolean).join(' ') : null);
  return {
    device,
    os: join(r.os.name, r.os.version),
    browser: join(r.browser.name, r.browser.major),
    isNextaMeishiApp: /NextaMeishi/i.test(ua ?? ''),
  };
}
