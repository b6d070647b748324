CREATE TABLE `activity_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer,
	`actor_user_id` integer,
	`action` text NOT NULL,
	`target_type` text,
	`target_id` text,
	`ip_address` text,
	`user_agent` text,
	`details` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activity_logs_tenant_created_idx` ON `activity_logs` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `activity_logs_actor_idx` ON `activity_logs` (`actor_user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `additional_departments` (
	`tenant_id` integer NOT NULL,
	`tenant_user_id` integer NOT NULL,
	`department_id` integer NOT NULL,
	PRIMARY KEY(`tenant_user_id`, `department_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_user_id`) REFERENCES `tenant_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `additional_departments_tenant_department_idx` ON `additional_departments` (`tenant_id`,`department_id`);--> statement-breakpoint
CREATE TABLE `backup_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`code_hash` text NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `backup_codes_user_code_uq` ON `backup_codes` (`user_id`,`code_hash`);--> statement-breakpoint
CREATE TABLE `contract_details` (
	`tenant_id` integer PRIMARY KEY NOT NULL,
	`trial_ends_at` integer,
	`contract_starts_at` integer,
	`contract_ends_at` integer,
	`contract_renews_at` integer,
	`feature_negotiations_users_limit` integer DEFAULT 0 NOT NULL,
	`negotiations_active_accounts` integer DEFAULT 0 NOT NULL,
	`feature_bulk_email_monthly_limit` integer DEFAULT 0 NOT NULL,
	`bulk_email_monthly_usage` integer DEFAULT 0 NOT NULL,
	`is_feature_kintone_subscribed` integer DEFAULT false NOT NULL,
	`is_feature_salesforce_subscribed` integer DEFAULT false NOT NULL,
	`is_feature_relation_subscribed` integer DEFAULT false NOT NULL,
	`is_feature_geniee_subscribed` integer DEFAULT false NOT NULL,
	`feature_scanner_app_keys_limit` integer DEFAULT 0 NOT NULL,
	`scanner_app_active_keys` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `departments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `departments_tenant_name_uq` ON `departments` (`tenant_id`,`name`);--> statement-breakpoint
CREATE TABLE `email_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`tenant_id` integer,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`signature_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_links_user_purpose_idx` ON `email_links` (`user_id`,`purpose`);--> statement-breakpoint
CREATE UNIQUE INDEX `email_links_signature_hash_uq` ON `email_links` (`signature_hash`);--> statement-breakpoint
CREATE TABLE `handoff_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`source_session_id` text NOT NULL,
	`target_tenant_id` integer NOT NULL,
	`path` text NOT NULL,
	`remember` integer DEFAULT false NOT NULL,
	`twofa_passed` integer DEFAULT false NOT NULL,
	`auth_method` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `handoff_codes_expires_idx` ON `handoff_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `import_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`user_id` integer,
	`kind` text NOT NULL,
	`filename` text NOT NULL,
	`status` text NOT NULL,
	`number_of_users_updated` integer DEFAULT 0 NOT NULL,
	`error` text,
	`start_time` integer NOT NULL,
	`end_time` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `import_logs_tenant_idx` ON `import_logs` (`tenant_id`,`start_time`);--> statement-breakpoint
CREATE TABLE `known_devices` (
	`user_id` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `fingerprint`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `login_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`tenant_id` integer,
	`kind` text NOT NULL,
	`remember` integer DEFAULT false NOT NULL,
	`code_hash` text,
	`code_expires_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`code_sent_at` integer,
	`compliance` text,
	`device_fingerprint` text,
	`network_fingerprint` text,
	`source` text,
	`continue_path` text,
	`expires_at` integer NOT NULL,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `login_challenges_token_hash_uq` ON `login_challenges` (`token_hash`);--> statement-breakpoint
CREATE INDEX `login_challenges_user_idx` ON `login_challenges` (`user_id`);--> statement-breakpoint
CREATE INDEX `login_challenges_expires_idx` ON `login_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `maintenance_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`app` text NOT NULL,
	`message_ja` text NOT NULL,
	`message_en` text NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `maintenance_messages_app_idx` ON `maintenance_messages` (`app`,`starts_at`);--> statement-breakpoint
CREATE TABLE `operator_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`scopes` text NOT NULL,
	`revoked_at` integer,
	`last_used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operator_tokens_token_hash_uq` ON `operator_tokens` (`token_hash`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`tenant_id` integer,
	`recipient` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `outbox_created_idx` ON `outbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `outlook_addin_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` integer,
	`tenant_id` integer,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `outlook_addin_tokens_expires_idx` ON `outlook_addin_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`tenant_id` integer,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `password_resets_token_hash_uq` ON `password_resets` (`token_hash`);--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);--> statement-breakpoint
CREATE TABLE `remembered_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`device` text,
	`os` text,
	`browser` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `remembered_devices_token_hash_uq` ON `remembered_devices` (`token_hash`);--> statement-breakpoint
CREATE INDEX `remembered_devices_user_idx` ON `remembered_devices` (`user_id`);--> statement-breakpoint
CREATE TABLE `saml_assertions` (
	`tenant_id` integer NOT NULL,
	`assertion_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `assertion_id`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saml_assertions_expires_idx` ON `saml_assertions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `saml_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`tenant_id` integer NOT NULL,
	`browser_binding_hash` text NOT NULL,
	`relay_state` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `saml_requests_expires_idx` ON `saml_requests` (`expires_at`);--> statement-breakpoint
CREATE TABLE `saml_settings` (
	`tenant_id` integer PRIMARY KEY NOT NULL,
	`idp_entity_id` text NOT NULL,
	`idp_sso_url` text NOT NULL,
	`idp_slo_url` text,
	`idp_x509cert` text NOT NULL,
	`is_idp_configured` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `service_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`user_id` integer,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`handled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `service_requests_tenant_idx` ON `service_requests` (`tenant_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`tenant_id` integer,
	`remember` integer DEFAULT false NOT NULL,
	`twofa_passed` integer DEFAULT false NOT NULL,
	`auth_method` text DEFAULT 'password' NOT NULL,
	`device` text,
	`os` text,
	`browser` text,
	`is_nexta_meishi_app` integer DEFAULT false NOT NULL,
	`ip_address` text,
	`country_code` text,
	`country` text,
	`city` text,
	`region` text,
	`password_verified_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_activity_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_token_hash_uq` ON `sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`,`last_activity_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `tenant_apps` (
	`tenant_id` integer NOT NULL,
	`app` text NOT NULL,
	`seats` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`tenant_id`, `app`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tenant_contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`kind` text NOT NULL,
	`company_name` text NOT NULL,
	`name` text NOT NULL,
	`department` text,
	`position` text,
	`email` text NOT NULL,
	`contact_number` text NOT NULL,
	`postal_code` text NOT NULL,
	`address` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_contacts_tenant_kind_uq` ON `tenant_contacts` (`tenant_id`,`kind`);--> statement-breakpoint
CREATE TABLE `tenant_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL,
	`is_sso_enabled` integer DEFAULT false NOT NULL,
	`saml_name_id` text,
	`department_id` integer,
	`operation_status` text,
	`last_active_at` integer,
	`invited_at` integer,
	`deactivated_at` integer,
	`meishi_access_granted_at` integer,
	`scheduler_access_granted_at` integer,
	`meishi_operator_access_granted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`department_id`) REFERENCES `departments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_users_tenant_user_uq` ON `tenant_users` (`tenant_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `tenant_users_user_idx` ON `tenant_users` (`user_id`);--> statement-breakpoint
CREATE INDEX `tenant_users_tenant_created_idx` ON `tenant_users` (`tenant_id`,`deactivated_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `tenant_users_tenant_department_idx` ON `tenant_users` (`tenant_id`,`department_id`);--> statement-breakpoint
CREATE INDEX `tenant_users_tenant_name_id_idx` ON `tenant_users` (`tenant_id`,`saml_name_id`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`initial_subdomain` text NOT NULL,
	`subdomain` text,
	`status` text DEFAULT 'trial' NOT NULL,
	`feature_sso_users_limit` integer DEFAULT 0 NOT NULL,
	`is_feature_ip_restriction_subscribed` integer DEFAULT false NOT NULL,
	`is_feature_twofa_enforcement_subscribed` integer DEFAULT false NOT NULL,
	`is_sso_enabled` integer DEFAULT false NOT NULL,
	`is_ip_restriction_enabled` integer DEFAULT false NOT NULL,
	`is_twofa_enforced` integer DEFAULT false NOT NULL,
	`is_twofa_skip_allowed` integer DEFAULT false NOT NULL,
	`minimum_password_length` integer DEFAULT 8 NOT NULL,
	`is_mixed_case_required` integer DEFAULT true NOT NULL,
	`is_number_required` integer DEFAULT true NOT NULL,
	`is_special_character_required` integer DEFAULT true NOT NULL,
	`password_policy_updated_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_initial_subdomain_uq` ON `tenants` (`initial_subdomain`);--> statement-breakpoint
CREATE UNIQUE INDEX `tenants_subdomain_uq` ON `tenants` (`subdomain`);--> statement-breakpoint
CREATE TABLE `throttles` (
	`key` text PRIMARY KEY NOT NULL,
	`hits` integer NOT NULL,
	`reset_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `throttles_reset_idx` ON `throttles` (`reset_at`);--> statement-breakpoint
CREATE TABLE `twofa_pending` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`method` text,
	`secret_ciphertext` text,
	`phone_e164` text,
	`backup_code_hashes` text,
	`sms_code_hash` text,
	`sms_code_expires_at` integer,
	`sms_sent_at` integer,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `twofa_secrets` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`method` text NOT NULL,
	`secret_ciphertext` text,
	`phone_e164` text,
	`last_used_step` integer,
	`confirmed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text,
	`password_changed_at` integer,
	`password_score` integer,
	`contact_number` text,
	`twofa_method` text,
	`email_verified_at` integer,
	`language` text DEFAULT 'ja' NOT NULL,
	`is_tenant_manager` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `whitelisted_ips` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`ip_address` text NOT NULL,
	`prefix_length` integer DEFAULT 32 NOT NULL,
	`description` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `whitelisted_ips_tenant_ip_uq` ON `whitelisted_ips` (`tenant_id`,`ip_address`,`prefix_length`);