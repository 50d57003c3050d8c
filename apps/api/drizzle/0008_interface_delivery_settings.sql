ALTER TABLE "interfaces" ADD COLUMN "processing_id" text DEFAULT 'P' NOT NULL;--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "host_key_sha256" text;--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "file_mode" integer;