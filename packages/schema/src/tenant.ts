import { z } from "zod";
import { EmailSchema, NameSchema, TenantIdSchema } from "./common.js";

/** Per-tenant switches (SPEC 2, 4: the Tele-AWV e-mail form and the alternate falls questions). */
export const TenantSettingsSchema = z.object({
  teleAwvEmail: z.boolean().default(false),
  alternateFalls: z.boolean().default(false),
  safetyAlertEmail: EmailSchema.optional(),
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
