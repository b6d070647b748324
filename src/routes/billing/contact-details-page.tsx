// Contact details (spec 02 "Contact details screen"): primary and billing contacts. A load
// failure shows the generic error (spec 02 section 8 "Contacts").
import { getContacts } from '../../domain/billing/contacts';
import ContactDetails from '../../islands/billing/ContactDetails';
import { Frame } from '../../ui/Frame';
import { Island } from '../../ui/Island';
import type { TenantCtx } from '../http/env';
import { loadFrame } from '../http/frame-data';
import { AdminHeading, LoadError } from '../http/admin-parts';
import { renderPage } from '../http/page';

export async function contactDetailsPage(c: TenantCtx) {
  const t = c.get('t');
  const lang = c.get('lang');
  const deps = c.get('deps');
  const scope = c.get('tenantScope');
  const { data } = await loadFrame(c, c.get('user'));
  const contacts = await getContacts(scope).catch((err: unknown) => {
    console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), path: c.req.path, error: String(err) }));
    return null;
  });
  return renderPage(c, {
    titleKey: 'titles.contact-details',
    body: (
      <Frame data={data}>
        <AdminHeading t={t} titleKey="titles.contact-details" />
        {contacts ? (
          <Island
            name="ContactDetails"
            component={ContactDetails}
            props={{ lang, basePath: deps.config.BASE_PATH, primary: contacts.primary_contact, billing: contacts.billing_contact }}
          />
        ) : (
          <LoadError t={t} />
        )}
      </Frame>
    ),
  });
}
