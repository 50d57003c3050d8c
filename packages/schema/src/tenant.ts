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
