// The deps of an app run inside a bench process (createApp + app.request, no socket): the real
// database and hashing, mail and SMS into their outboxes, one client address for every request.
import type { Db } from '../src/db/client';
import type { Config } from '../src/config';
import type { Deps } from '../src/deps';
import { outboxMailer } from '../src/adapters/mail-outbox';
import { outboxSms } from '../src/adapters/sms-outbox';
import { standInAppUsage } from '../src/adapters/app-usage';

export function inProcessDeps(db: Db, config: Config, passwords: Deps['passwords'], clientIp: string): Deps {
  return {
    db,
    config,
    clock: { now: () => Date.now() },
    passwords,
    mailer: outboxMailer(db, () => Date.now()),
    sms: outboxSms(db, () => Date.now()),
    runtime: { clientIp: () => clientIp, isHttps: () => false, header: (req, _env, name) => req.headers.get(name) ?? undefined, requestId: () => null, geo: () => null },
    appUsage: standInAppUsage,
  };
}
