ALTER TABLE `activity_logs` ADD `actor_email` text;--> statement-breakpoint
ALTER TABLE `activity_logs` ADD `actor_name` text;--> statement-breakpoint
ALTER TABLE `handoff_codes` ADD `browser_hash` text;--> statement-breakpoint
ALTER TABLE `login_challenges` ADD `authenticated_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `authenticated_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `sso_tenant_id` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `twofa_skipped` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tenant_users` ADD `invitation_pending` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `tenant_users` ADD `display_name` text;--> statement-breakpoint
ALTER TABLE `twofa_pending` ADD `backup_codes_ciphertext` text;--> statement-breakpoint
-- Backfill: entries written before the actor columns existed keep the actor as the account is now.
UPDATE `activity_logs` SET `actor_email` = (SELECT `email` FROM `users` WHERE `users`.`id` = `activity_logs`.`actor_user_id`), `actor_name` = (SELECT `name` FROM `users` WHERE `users`.`id` = `activity_logs`.`actor_user_id`) WHERE `actor_user_id` IS NOT NULL;
