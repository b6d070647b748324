// Issue 14: with `PORT=8851 npm start` every mail link pointed at :8787, so invitation links failed
// their signature. PUBLIC_URL's dev default follows the port, and `npm start` hands the port (and a
// PUBLIC_URL or PORTAL_DOMAIN set in the shell) to the worker, which does not see the shell.
import { describe, expect, it } from 'vitest';
import { workerDevVars } from '../../scripts/worker-dev-vars.mjs';
import { readConfig } from '../../src/config';

describe('PUBLIC_URL in development', () => {
  it('defaults to the port the portal listens on', () => {
    expect(readConfig({ DEV_MODE: 'true', PORT: '8851' }).PUBLIC_URL).toBe('http://localhost:8851');
    expect(readConfig({ DEV_MODE: 'true', PORT: '8851', PORTAL_DOMAIN: 'portal.test' }).PUBLIC_URL).toBe('http://portal.test:8851');
  });

  it('keeps 8787 when no port is given, and an explicit PUBLIC_URL wins', () => {
    expect(readConfig({ DEV_MODE: 'true' }).PUBLIC_URL).toBe('http://localhost:8787');
    expect(readConfig({ DEV_MODE: 'true', PORT: '' }).PUBLIC_URL).toBe('http://localhost:8787');
    expect(readConfig({ DEV_MODE: 'true', PORT: '8851', PUBLIC_URL: 'http://localhost:9000/' }).PUBLIC_URL).toBe('http://localhost:9000');
  });

  it('outside dev mode is the https origin of the domain, whatever the port', () => {
    const env = { PORT: '8851', PORTAL_DOMAIN: 'portal.example.com', LINK_SIGNING_KEY: 'k'.repeat(32), DATA_ENCRYPTION_KEY: 'd'.repeat(32), SMTP_URL: 'smtp://127.0.0.1:25' };
    expect(readConfig(env).PUBLIC_URL).toBe('https://portal.example.com');
  });
});

describe('npm start hands the worker its port and the shell settings it needs', () => {
  const vars = (env: Record<string, string>, port: string) => {
    const args = workerDevVars(env, port);
    const out: Record<string, string> = {};
    for (let i = 0; i < args.length; i += 2) {
      expect(args[i]).toBe('--var');
      const [k, ...v] = args[i + 1]!.split(':');
      out[k!] = v.join(':');
    }
    return out;
  };

  it('passes PORT, so the worker derives the mail links from it', () => {
    const v = vars({}, '8851');
    expect(v).toMatchObject({ PORT: '8851', DEV_MODE: 'true' });
    expect(v.PUBLIC_URL).toBeUndefined();
    expect(readConfig(v).PUBLIC_URL).toBe('http://localhost:8851');
  });

  it('passes PUBLIC_URL and PORTAL_DOMAIN from the environment through', () => {
    const v = vars({ PUBLIC_URL: 'http://localhost:8851', PORTAL_DOMAIN: 'localhost', SECRET: 'no' }, '8851');
    expect(v.PUBLIC_URL).toBe('http://localhost:8851');
    expect(v.PORTAL_DOMAIN).toBe('localhost');
    expect(v.SECRET).toBeUndefined();
  });
});
