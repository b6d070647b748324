ALTER TABLE `sessions` ADD `saml_name_id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `saml_name_id_format` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `saml_session_index` text;