-- A tenant of its own that enforces two-factor, for the SMS setup at login in workerd
-- (tests/workers/twofa-setup-sms.test.ts, decision 0046): two members without 2FA (copies of Acme's
-- demo user, same password), so no other workers test meets the enforced setup or spends their SMS.
INSERT INTO tenants (name, initial_subdomain, status, is_feature_twofa_enforcement_subscribed, is_twofa_enforced, is_twofa_skip_allowed) VALUES ('2FA Workers', 'twofaw', 'contracted', 1, 1, 0);
INSERT INTO tenant_apps (tenant_id, app, seats) SELECT id, 'meishi', NULL FROM tenants WHERE initial_subdomain = 'twofaw';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'sms-a@twofaw.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'sms-b@twofaw.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO tenant_users (tenant_id, user_id, is_admin, meishi_access_granted_at)
  SELECT t.id, u.id, 0, 1 FROM tenants t, users u WHERE t.initial_subdomain = 'twofaw' AND u.email LIKE 'sms-%@twofaw.test';
