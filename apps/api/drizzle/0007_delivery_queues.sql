ALTER TABLE "deliveries" ADD COLUMN "queue_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "claimed_by" text;--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "queue_tail" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "deliveries_queue_idx" ON "deliveries" USING btree ("tenant_id","interface_id","queue_seq","id");--> statement-breakpoint
CREATE INDEX "deliveries_tenant_status_idx" ON "deliveries" USING btree ("tenant_id","status","id");