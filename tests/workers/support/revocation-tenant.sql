-- A tenant of its own for the revocation tests in workerd (tests/workers/revocations.test.ts):
-- an admin and three members (copies of Acme's demo users, same password) whose sessions the
-- tests end by deactivation, password change and the IP allowlist, so no other test is touched.
INSERT INTO tenants (name, initial_subdomain, status, is_feature_ip_restriction_subscribed) VALUES ('Revocations Workers', 'revokew', 'contracted', 1);
INSERT INTO tenant_apps (tenant_id, app, seats) SELECT id, 'meishi', NULL FROM tenants WHERE initial_subdomain = 'revokew';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'rev-admin@revokew.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'admin@acme.test';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'rev-a@revokew.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'rev-b@revokew.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'rev-c@revokew.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'user@acme.test';
INSERT INTO tenant_users (tenant_id, user_id, is_admin, meishi_access_granted_at)
  SELECT t.id, u.id, u.email = 'rev-admin@revokew.test', 1 FROM tenants t, users u WHERE t.initial_subdomain = 'revokew' AND u.email LIKE 'rev-%@revokew.test';
-- A second admin for the concurrency test of the same tenant (tests/workers/rules-in-statements.test.ts),
-- so neither file's sign-ins make the other's browsers look new.
INSERT INTO users (name, email, password_hash, language, email_verified_at, password_score, password_changed_at)
  SELECT name, 'race-admin@revokew.test', password_hash, language, email_verified_at, password_score, password_changed_at FROM users WHERE email = 'admin@acme.test';
INSERT INTO tenant_users (tenant_id, user_id, is_admin, meishi_access_granted_at)
  SELECT t.id, u.id, 1, 1 FROM tenants t, users u WHERE t.initial_subdomain = 'revokew' AND u.email = 'race-admin@revokew.test';
