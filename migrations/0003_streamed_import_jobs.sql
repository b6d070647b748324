CREATE TABLE `import_chunks` (
	`job_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`data` text NOT NULL,
	PRIMARY KEY(`job_id`, `seq`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `import_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` integer NOT NULL,
	`user_id` integer,
	`import_log_id` integer,
	`kind` text NOT NULL,
	`filename` text NOT NULL,
	`lang` text NOT NULL,
	`status` text NOT NULL,
	`encoding` text,
	`bytes` integer DEFAULT 0 NOT NULL,
	`chunks` integer DEFAULT 0 NOT NULL,
	`total_rows` integer DEFAULT 0 NOT NULL,
	`processed_rows` integer DEFAULT 0 NOT NULL,
	`next_chunk` integer DEFAULT 0 NOT NULL,
	`carry` text DEFAULT '' NOT NULL,
	`newline` text,
	`header_seen` integer DEFAULT false NOT NULL,
	`records` integer DEFAULT 0 NOT NULL,
	`row_errors` text DEFAULT '[]' NOT NULL,
	`error_code` text,
	`error_status` integer,
	`error_details` text,
	`imported_rows` integer,
	`actor_ip` text,
	`actor_user_agent` text,
	`delimiter` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` integer,
	`lease_token` text,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	`cleaned_at` integer,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`import_log_id`) REFERENCES `import_logs`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `import_jobs_tenant_idx` ON `import_jobs` (`tenant_id`,`status`);--> statement-breakpoint
CREATE INDEX `import_jobs_status_idx` ON `import_jobs` (`status`,`locked_until`);--> statement-breakpoint
CREATE TABLE `import_rows` (
	`job_id` integer NOT NULL,
	`line` integer NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`department_id` integer,
	`extra` text DEFAULT '[]' NOT NULL,
	`meishi` integer NOT NULL,
	`scheduler` integer NOT NULL,
	`is_admin` integer NOT NULL,
	`valid` integer NOT NULL,
	`user_id` integer,
	`tenant_user_id` integer,
	PRIMARY KEY(`job_id`, `line`),
	FOREIGN KEY (`job_id`) REFERENCES `import_jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `import_rows_job_email_uq` ON `import_rows` (`job_id`,`email`);