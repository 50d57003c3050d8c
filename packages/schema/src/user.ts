import { z } from "zod";
import { EmailSchema, NameSchema, ObjectIdSchema, TenantIdSchema } from "./common.js";
import { RolesSchema } from "./roles.js";
import { TenantSchema } from "./tenant.js";
import { NewPasswordSchema, PasswordSchema } from "./auth.js";

/** The `tenant` value of a user who belongs to several tenants (SPEC 1, 3). */
export const MULTI_TENANT = "multi";

/** A portal user. `tenant` is the tenant id, or "multi" for a user of several tenants. */
export const UserSchema = z.object({
  id: ObjectIdSchema,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  roles: RolesSchema,
  tenant: z.union([TenantIdSchema, z.literal(MULTI_TENANT)]),
  tenants: z.array(TenantIdSchema),
});
export type User = z.infer<typeof UserSchema>;

/**
 * What the signed-in user may do in the session's current tenant, one flag per act the web offers, each
 * derived by the API from its permission table (apps/api/src/permissions.ts, `UI_ACTION_ROUTES`) and
 * the practice's `usersMay` settings. The web shows a screen, a link or a button by these flags alone.
 */
export const MaySchema = z.object({
  /** Remove a patient (and restore removed records). */
  removePatients: z.boolean(),
  /** Remove a survey result. */
  removeResults: z.boolean(),
  /** Resend or skip a delivery. */
  resendDeliveries: z.boolean(),
  /** Acknowledge a safety alert. */
  acknowledgeAlerts: z.boolean(),
  /** Edit and delete surveys in the designer. */
  editSurveys: z.boolean(),
  /** Edit and delete report definitions. */
  editReports: z.boolean(),
  /** Manage the practice's users. */
  manageUsers: z.boolean(),
  /** Manage the practice's locations. */
  manageLocations: z.boolean(),
  /** Manage the practice's delivery interfaces. */
  manageInterfaces: z.boolean(),
  /** See the inbound messages and manage facilities and senders. */
  manageInbound: z.boolean(),
  /** Read the audit log. */
  viewAudit: z.boolean(),
  /** Upload a batch of results. */
  uploadBatch: z.boolean(),
  /** Set up a second factor. */
  setUpSecondFactor: z.boolean(),
  /** Manage every practice (the tenants screen). */
  manageTenants: z.boolean(),
  /** Switch into a practice one is not a member of. */
  visitTenants: z.boolean(),
});
export type May = z.infer<typeof MaySchema>;
export type UiAction = keyof May;

/**
 * The signed-in user, the session's current tenant and what the user may do there (GET /api/users/me,
 * and `<body data-*>`).
 */
export const MeSchema = z.object({ user: UserSchema, tenant: TenantSchema, may: MaySchema });
export type Me = z.infer<typeof MeSchema>;

/** Body of PUT /api/users/me. Blank new-password fields mean "keep the password". */
export const UpdateMeRequestSchema = z
  .object({
    firstName: NameSchema,
    lastName: NameSchema,
    currentPassword: PasswordSchema,
    newPassword: z.preprocess((v) => (v === "" || v === null ? undefined : v), NewPasswordSchema.optional()),
    confirmPassword: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().optional()),
  })
  .superRefine((v, ctx) => {
    if (v.newPassword !== undefined && v.newPassword !== v.confirmPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "Passwords do not match." });
    }
  });
export type UpdateMeRequest = z.infer<typeof UpdateMeRequestSchema>;

/** Body of PUT /api/users/me/tenant. */
export const SwitchTenantRequestSchema = z.object({ tenantId: TenantIdSchema });
export type SwitchTenantRequest = z.infer<typeof SwitchTenantRequestSchema>;

/** Body of POST /api/users from the admin screen. */
export const CreateUserRequestSchema = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  email: EmailSchema,
  roles: RolesSchema,
  password: NewPasswordSchema.optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>;

/** Body of POST /api/users from the test form of /auth/test (SPEC 2: roles free text, default 'User'). */
export const TestUserCreateRequestSchema = z.object({
  name: NameSchema,
  email: EmailSchema,
  roles: z.string().max(100).default("User"),
});
export type TestUserCreateRequest = z.infer<typeof TestUserCreateRequestSchema>;

/** Body of PUT /api/users/{id}. */
export const UpdateUserRequestSchema = z.object({
  firstName: NameSchema,
  lastName: NameSchema,
  roles: RolesSchema,
});
export type UpdateUserRequest = z.infer<typeof UpdateUserRequestSchema>;

/** Answer of POST /api/users for a person who already has an account: an invitation went to them. */
export const UserInvitedSchema = z.object({ invited: z.literal(true), email: z.string() });
export type UserInvited = z.infer<typeof UserInvitedSchema>;

/** The token of an invitation e-mail's link. */
const InvitationTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{32,128}$/, "Must be the token of the invitation's link.");

/** Body of POST /api/users/invitations/lookup: the token of the invitation e-mail's link. */
export const InvitationLookupRequestSchema = z.object({ token: InvitationTokenSchema });

/**
 * Body of POST /api/users/invitations/accept: the token, and for a new account the password it chooses
 * (with its confirmation); an existing account's password is not asked and stays as it is.
 */
export const InvitationAcceptRequestSchema = z.object({
  token: InvitationTokenSchema,
  password: z.preprocess((v) => (v === "" || v === null ? undefined : v), NewPasswordSchema.optional()),
  confirmPassword: z.string().max(1024).optional(),
});
export type InvitationAcceptRequest = z.infer<typeof InvitationAcceptRequestSchema>;

/** Answer of POST /api/users/invitations/accept: the practice joined. */
export const InvitationAcceptResponseSchema = z.object({
  tenant: z.object({ id: TenantIdSchema, name: z.string() }),
});

/**
 * Answer of POST /api/users/invitations/lookup: the practice offered and whether the invitation makes a
 * new account, which then chooses its password (its e-mail shown, to sign in with later).
 */
export const InvitationLookupResponseSchema = InvitationAcceptResponseSchema.extend({
  newAccount: z.boolean(),
  email: z.string().optional(),
});
export type InvitationLookupResponse = z.infer<typeof InvitationLookupResponseSchema>;
