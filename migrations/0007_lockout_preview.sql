ALTER TABLE `users` ADD `password_traits` integer;--> statement-breakpoint
CREATE INDEX `activity_logs_tenant_action_idx` ON `activity_logs` (`tenant_id`,`action`,`created_at`);