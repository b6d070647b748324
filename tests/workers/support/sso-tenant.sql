-- A tenant of its own for the SAML tests in workerd (tests/workers/saml.test.ts): subscribed to
-- SSO, a password admin and a member whose SSO switch is on (copies of Acme's demo users), so no
-- other workers test sees SSO.
INSERT INTO tenants (name, initial_subdomain, status, feature_sso_users_limit) VALUES ('SSO Workers', 'ssow', 'contracted', 5);
INSERT INTO tenant_apps (tenant_id, app, seats) SELECT id, 'meishi', NULL FROM tenants WHERE initial_subdomain = 'ssow';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'sso-admin@ssow.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'admin@acme.test';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'sso-member@ssow.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO tenant_users (tenant_id, user_id, is_admin, is_sso_enabled, meishi_access_granted_at)
  SELECT t.id, u.id, 1, 0, 1 FROM tenants t, users u WHERE t.initial_subdomain = 'ssow' AND u.email = 'sso-admin@ssow.test';
INSERT INTO tenant_users (tenant_id, user_id, is_admin, is_sso_enabled, meishi_access_granted_at)
  SELECT t.id, u.id, 0, 1, 1 FROM tenants t, users u WHERE t.initial_subdomain = 'ssow' AND u.email = 'sso-member@ssow.test';
