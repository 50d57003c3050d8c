-- The assigning authority of the MRN an interface sends, the same in HL7 PID-3.4, CDA and FHIR: its name
-- (PID-3.4.1, assigningAuthorityName, the identifier's assigner) and its OID (PID-3.4.2 with type ISO, the CDA id root,
-- the identifier system urn:oid:...). Empty and null keep the sending facility's name or OID.
ALTER TABLE "interfaces" ADD COLUMN "assigning_authority" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "interfaces" ADD COLUMN "assigning_authority_oid" text;