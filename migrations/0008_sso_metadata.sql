CREATE TABLE `saml_certificate_warnings` (
	`tenant_id` integer NOT NULL,
	`fingerprint` text NOT NULL,
	`threshold_days` integer NOT NULL,
	`not_after` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`tenant_id`, `fingerprint`, `threshold_days`),
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `saml_settings` ADD `idp_metadata_url` text;--> statement-breakpoint
ALTER TABLE `saml_settings` ADD `metadata_checked_at` integer;--> statement-breakpoint
ALTER TABLE `saml_settings` ADD `metadata_error` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `sso_certificate_expires_at` integer;