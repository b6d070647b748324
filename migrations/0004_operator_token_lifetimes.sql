ALTER TABLE `operator_tokens` ADD `last_used_ip` text;--> statement-breakpoint
ALTER TABLE `operator_tokens` ADD `expires_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `operator_tokens` ADD `replaces_id` integer;--> statement-breakpoint
ALTER TABLE `operator_tokens` ADD `replaces_until` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `operator_tokens_replaces_uq` ON `operator_tokens` (`replaces_id`);--> statement-breakpoint
-- Written by hand (decision 0036): tokens made before expiry existed get 90 days from the moment this
-- migration runs, so none stays valid forever and none dies the minute the new code is deployed.
UPDATE `operator_tokens` SET `expires_at` = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 7776000000 WHERE `expires_at` = 0;
