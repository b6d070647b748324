ALTER TABLE `handoff_codes` ADD `browser_hash` text;--> statement-breakpoint
ALTER TABLE `login_challenges` ADD `authenticated_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `authenticated_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `sso_tenant_id` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `twofa_skipped` integer DEFAULT false NOT NULL;