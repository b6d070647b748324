CREATE TABLE `tenant_hosts` (
	`label` text PRIMARY KEY NOT NULL,
	`tenant_id` integer NOT NULL,
	`kind` text NOT NULL,
	FOREIGN KEY (`tenant_id`) REFERENCES `tenants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tenant_hosts_tenant_kind_uq` ON `tenant_hosts` (`tenant_id`,`kind`);--> statement-breakpoint
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
--> statement-breakpoint
-- Every label a tenant is reached at, initial and custom, under one unique key (decision 0026).
-- Existing labels: initial ones first; a custom label that collides with another tenant's initial
-- one (the race this table closes) is left out rather than failing the migration.
INSERT INTO `tenant_hosts` (`label`, `tenant_id`, `kind`) SELECT `initial_subdomain`, `id`, 'initial' FROM `tenants`;
--> statement-breakpoint
INSERT OR IGNORE INTO `tenant_hosts` (`label`, `tenant_id`, `kind`) SELECT `subdomain`, `id`, 'custom' FROM `tenants` WHERE `subdomain` IS NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_on_insert` AFTER INSERT ON `tenants` BEGIN
  INSERT INTO `tenant_hosts` (`label`, `tenant_id`, `kind`) VALUES (NEW.`initial_subdomain`, NEW.`id`, 'initial');
  INSERT INTO `tenant_hosts` (`label`, `tenant_id`, `kind`) SELECT NEW.`subdomain`, NEW.`id`, 'custom' WHERE NEW.`subdomain` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_on_subdomain` AFTER UPDATE OF `subdomain` ON `tenants` WHEN NEW.`subdomain` IS NOT OLD.`subdomain` BEGIN
  DELETE FROM `tenant_hosts` WHERE `tenant_id` = NEW.`id` AND `kind` = 'custom';
  INSERT INTO `tenant_hosts` (`label`, `tenant_id`, `kind`) SELECT NEW.`subdomain`, NEW.`id`, 'custom' WHERE NEW.`subdomain` IS NOT NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `tenant_hosts_on_initial` AFTER UPDATE OF `initial_subdomain` ON `tenants` WHEN NEW.`initial_subdomain` IS NOT OLD.`initial_subdomain` BEGIN
  UPDATE `tenant_hosts` SET `label` = NEW.`initial_subdomain` WHERE `tenant_id` = NEW.`id` AND `kind` = 'initial';
END;
