ALTER TABLE `import_jobs` ADD `has_reading` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `import_rows` ADD `name_reading` text;--> statement-breakpoint
ALTER TABLE `tenant_users` ADD `name_reading` text;