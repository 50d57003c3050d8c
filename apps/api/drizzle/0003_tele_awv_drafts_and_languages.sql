ALTER TABLE "awv_invitations" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "awv_invitations" ADD COLUMN "draft_answers" jsonb;--> statement-breakpoint
ALTER TABLE "awv_invitations" ADD COLUMN "draft_page" integer;--> statement-breakpoint
ALTER TABLE "awv_invitations" ADD COLUMN "draft_language" text;--> statement-breakpoint
ALTER TABLE "awv_invitations" ADD COLUMN "draft_saved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "preferred_language" text;--> statement-breakpoint
CREATE INDEX "awv_invitations_draft_expiry_idx" ON "awv_invitations" USING btree ("expires_at") WHERE "awv_invitations"."draft_answers" is not null;