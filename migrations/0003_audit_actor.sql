ALTER TABLE `activity_logs` ADD `actor_email` text;--> statement-breakpoint
ALTER TABLE `activity_logs` ADD `actor_name` text;--> statement-breakpoint
-- Backfill: entries written before the columns existed keep the actor as the account is now.
UPDATE `activity_logs` SET `actor_email` = (SELECT `email` FROM `users` WHERE `users`.`id` = `activity_logs`.`actor_user_id`), `actor_name` = (SELECT `name` FROM `users` WHERE `users`.`id` = `activity_logs`.`actor_user_id`) WHERE `actor_user_id` IS NOT NULL;
