CREATE TABLE `scim_settings` (
	`tenant_id` integer PRIMARY KEY NOT NULL,
	`apps` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `scim_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_by_user_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer DEFAULT 0 NOT NULL,
	`revoked_at` integer,
	`last_used_at` integer,
	`last_used_ip` text,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scim_tokens_token_hash_uq` ON `scim_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `scim_tokens_tenant_idx` ON `scim_tokens` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `scim_users` (
	`tenant_user_id` integer PRIMARY KEY NOT NULL,
	`tenant_id` integer NOT NULL,
	`external_id` text,
	`profile` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_user_id`) REFERENCES `tenant_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `scim_users_tenant_external_idx` ON `scim_users` (`tenant_id`,`external_id`);--> statement-breakpoint
ALTER TABLE `background_jobs` ADD `actor_name` text;--> statement-breakpoint
ALTER TABLE `departments` ADD `scim_external_id` text;--> statement-breakpoint
CREATE INDEX `departments_tenant_scim_external_idx` ON `departments` (`tenant_id`,`scim_external_id`);