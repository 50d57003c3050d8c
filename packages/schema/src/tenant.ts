import { z } from "zod";
import { EmailSchema, NameSchema, TenantIdSchema } from "./common.js";
import { AddressSchema } from "./patient.js";

/**
 * What a practice lets its plain users do beyond their defaults (the permission table's `usersIf`):
 * deleting patients and results, resending deliveries, acknowledging safety alerts. Admins always may.
 */
export const UsersMaySchema = z.object({
  deleteRecords: z.boolean().default(false),
  resendDeliveries: z.boolean().default(false),
  acknowledgeAlerts: z.boolean().default(false),
});
export type UsersMay = z.infer<typeof UsersMaySchema>;

/** An HD value (HL7 v2 data type HD, a namespace id or an OID): no HL7 delimiter characters. */
const HdValueSchema = z
  .string()
  .trim()
  .min(1, "This field is required.")
  .max(180)
  .regex(/^[^|^~\\&\r\n]+$/, "Must not contain | ^ ~ \\ & or line breaks.");

/**
 * A receiving facility of inbound HL7 (MSH-6, namespace id or universal id) and, optionally, the
 * receiving application (MSH-5) that chooses this practice for a message from the EHR. A facility and
 * application belong to one practice at most.
 */
export const InboundFacilitySchema = z.object({
  facility: HdValueSchema,
  application: z.preprocess((v) => (v === "" || v === null ? undefined : v), HdValueSchema.optional()),
});
export type InboundFacility = z.infer<typeof InboundFacilitySchema>;

export const InboundFacilitiesSchema = z.array(InboundFacilitySchema).max(20);

/** A peer address an inbound sender connects from: one IPv4 or IPv6 address, or a network in CIDR form. */
export const PeerAddressSchema = z
  .string()
  .trim()
  .min(1, "This field is required.")
  .max(64)
  .refine(
    (v) => [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((schema) => schema.safeParse(v).success),
    "Must be an IP address (10.1.2.3, fd00::5) or a network (10.1.2.0/24).",
  );

/**
 * A sender whose inbound HL7 this practice applies: the sending application (MSH-3) and facility
 * (MSH-4), each its namespace id or universal id, and the addresses its connections come from. A
 * message from anyone else is answered AR naming the sender, and audited.
 */
export const InboundSenderSchema = z.object({
  application: HdValueSchema,
  facility: HdValueSchema,
  addresses: z.array(PeerAddressSchema).min(1, "Name at least one address.").max(20),
});
export type InboundSender = z.infer<typeof InboundSenderSchema>;

export const InboundSendersSchema = z
  .array(InboundSenderSchema)
  .max(20)
  .superRefine((senders, ctx) => {
    const seen = new Set<string>();
    senders.forEach((sender, index) => {
      const key = `${sender.application.toLowerCase()}\u0000${sender.facility.toLowerCase()}`;
      if (seen.has(key)) {
        ctx.addIssue({ code: "custom", path: [index, "facility"], message: "This sender is listed twice." });
      }
      seen.add(key);
    });
  });

/**
 * HL7 table 0103 processing ids a practice may apply (MSH-11): production, training, debugging. A
 * practice applies only messages of its own; the others are answered AR.
 */
export const INBOUND_PROCESSING_IDS = ["P", "T", "D"] as const;
export const InboundProcessingIdSchema = z.enum(INBOUND_PROCESSING_IDS);
export type InboundProcessingId = z.infer<typeof InboundProcessingIdSchema>;

/**
 * Per-tenant switches (SPEC 2, 4: the Tele-AWV e-mail form and the alternate falls questions), what
 * plain users may do, and whether the practice's admins must sign in with a second factor.
 */
export const TenantSettingsSchema = z.object({
  teleAwvEmail: z.boolean().default(false),
  alternateFalls: z.boolean().default(false),
  safetyAlertEmail: EmailSchema.optional(),
  usersMay: UsersMaySchema.optional(),
  requireAdminTotp: z.boolean().optional(),
  /** The practice's address and phone: author and custodian of the CDA documents it sends. */
  contact: z
    .object({ address: AddressSchema.optional(), phone: z.string().trim().max(32).optional() })
    .optional(),
  /** The receiving facilities (MSH-5/MSH-6) of inbound HL7 ADT messages meant for this practice. */
  inboundFacilities: InboundFacilitiesSchema.optional(),
  /** The senders (MSH-3/MSH-4 and peer addresses) whose inbound messages this practice applies. */
  inboundSenders: InboundSendersSchema.optional(),
  /** The processing id (MSH-11) of the inbound messages it applies; P when absent. */
  inboundProcessingId: InboundProcessingIdSchema.optional(),
});
export type TenantSettings = z.infer<typeof TenantSettingsSchema>;

/** A tenant (a practice). */
export const TenantSchema = z.object({
  id: TenantIdSchema,
  name: NameSchema,
  settings: TenantSettingsSchema.default({ teleAwvEmail: false, alternateFalls: false }),
});
export type Tenant = z.infer<typeof TenantSchema>;

/** Body of PUT /api/tenants/{id}. */
export const TenantUpdateSchema = TenantSchema.omit({ id: true });
export type TenantUpdate = z.infer<typeof TenantUpdateSchema>;

/** An item of GET /api/tenants/getMultiUserTenants. */
export const TenantRefSchema = z.object({ id: TenantIdSchema, name: z.string() });
export type TenantRef = z.infer<typeof TenantRefSchema>;

export const TenantParamsSchema = z.object({ tenantId: TenantIdSchema });
