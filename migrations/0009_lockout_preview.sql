ALTER TABLE `import_jobs` ADD `dry_run` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `import_jobs` ADD `previewed_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `password_traits` integer;--> statement-breakpoint
CREATE INDEX `activity_logs_tenant_action_idx` ON `activity_logs` (`tenant_id`,`action`,`created_at`,`actor_user_id`,`ip_address`);