CREATE TABLE "inbound_messages" (
	"tenant_id" text NOT NULL,
	"id" text NOT NULL,
	"sending_facility" text NOT NULL,
	"control_id" text NOT NULL,
	"message_type" text NOT NULL,
	"outcome" text NOT NULL,
	"action" text,
	"patient_mrn" text,
	"patient_id" text,
	"error_field" text,
	"error" text,
	"ack" text NOT NULL,
	"received" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_messages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_control_key" ON "inbound_messages" USING btree ("tenant_id","sending_facility","control_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_received_idx" ON "inbound_messages" USING btree ("tenant_id","received_at");