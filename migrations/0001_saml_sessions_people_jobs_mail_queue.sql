CREATE TABLE `background_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer,
	`kind` text NOT NULL,
	`target_id` integer NOT NULL,
	`actor_user_id` integer,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `background_jobs_status_idx` ON `background_jobs` (`status`,`locked_until`);--> statement-breakpoint
CREATE INDEX `background_jobs_target_idx` ON `background_jobs` (`kind`,`target_id`);--> statement-breakpoint
CREATE TABLE `mail_queue` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`available_at` integer NOT NULL,
	`locked_until` integer,
	`sent_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mail_queue_status_idx` ON `mail_queue` (`status`,`available_at`);--> statement-breakpoint
CREATE INDEX `mail_queue_user_idx` ON `mail_queue` (`user_id`,`tenant_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `saml_name_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `saml_name_id_format` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `saml_session_index` text;