// Billing (admins only): contacts, subscriptions, requests for more services, the contract application.
import { Hono } from 'hono';
import type { AppEnv } from '../http/env';
import { feature } from '../http/feature';
import { tenantPage } from '../middleware/guards';
import { billingApi } from './api';
import { contactDetailsPage } from './contact-details-page';
import { getMoreServicesPage } from './get-more-services-page';
import { subscriptionsPage } from './subscriptions-page';

export const billing = feature({
  api: [billingApi],
  pages: [
    new Hono<AppEnv>().get('/admin/contact-details', tenantPage, contactDetailsPage).get('/admin/subscriptions', tenantPage, subscriptionsPage).get('/admin/get-more-services', tenantPage, getMoreServicesPage),
  ],
});
