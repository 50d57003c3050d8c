import { z } from "zod";
import { NameSchema, ObjectIdSchema } from "./common.js";

export const INTERFACE_TYPES = ["hl7-mllp", "cda-mllp", "cda-sftp", "sftp", "fhir-http"] as const;
export const InterfaceTypeSchema = z.enum(INTERFACE_TYPES);
export type InterfaceType = z.infer<typeof InterfaceTypeSchema>;

const HostSchema = z
  .string()
  .trim()
  .min(1, "This field is required.")
  .max(253)
  .regex(/^[A-Za-z0-9.:_[\]-]+$/, "Must be a host name or address.");
const HeaderTextSchema = z.string().trim().max(180).default("");
/**
 * An MSH-3..6 (or PID-3.4) setting as an admin writes it: none of HL7 v2's delimiters (| ^ ~ \ &,
 * HL7 v2.5.1 §2.5.4) nor a control character, which would split the field or the segment at the receiver.
 * Only written values are held to it, so an interface stored before still reads back.
 */
const HL7_DELIMITERS = "|^~\\&";
const HeaderTextInputSchema = HeaderTextSchema.refine(
  (v) => ![...v].some((c) => HL7_DELIMITERS.includes(c) || c.charCodeAt(0) < 0x20 || c === "\u007f"),
  "Must not contain the HL7 delimiters | ^ ~ \\ & or a control character.",
);
const optional = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), s.optional());

/**
 * How the worker treats one interface's queue. An attempt waits `ackTimeoutSeconds` for the
 * receiver's answer; after a failed attempt n the next waits `retryDelaysSeconds[n-1]` (the last
 * entry repeats); attempt `maxAttempts` is the last, after which the delivery is failed (final) and
 * holds the interface's queue until an admin skips or resends it.
 */
export const InterfaceSettingsSchema = z.object({
  ackTimeoutSeconds: z.number().int().min(1).max(600).default(30),
  retryDelaysSeconds: z
    .array(z.number().int().min(1).max(86_400))
    .min(1)
    .max(50)
    .default([10, 20, 40, 80, 160, 320, 640, 1280, 1800]),
  maxAttempts: z.number().int().min(1).max(100).default(10),
});
export type InterfaceSettings = z.infer<typeof InterfaceSettingsSchema>;

/** The settings of an interface that stored none or only some: the defaults fill the rest. */
export const DEFAULT_INTERFACE_SETTINGS: InterfaceSettings = InterfaceSettingsSchema.parse({});
/** HL7 table 0103 processing ids: production, training, debugging (MSH-11). */
export const PROCESSING_IDS = ["P", "T", "D"] as const;

/** An SSH host key's SHA-256 fingerprint as OpenSSH prints it: `SHA256:` and 43 characters of base64. */
export const HOST_KEY_SHA256 = /^SHA256:[A-Za-z0-9+/]{43}$/;

const InterfaceFieldsSchema = z.object({
  name: NameSchema,
  type: InterfaceTypeSchema,
  host: HostSchema,
  port: z.number().int().min(1).max(65535),
  username: optional(z.string().trim().max(200)),
  path: optional(z.string().trim().max(1000)),
  sendingApplication: HeaderTextSchema,
  sendingFacility: HeaderTextSchema,
  receivingApplication: HeaderTextSchema,
  receivingFacility: HeaderTextSchema,
  /**
   * The assigning authority of the patient's MRN, the same in every format: HL7 PID-3.4 (its namespace
   * id), CDA `patientRole/id/@assigningAuthorityName` and the FHIR identifier's assigner. When absent, the
   * sending facility when it is a name, else the sending application.
   */
  assigningAuthority: optional(HeaderTextSchema),
  /**
   * The ISO OID of that authority: PID-3.4's universal id (type ISO), the CDA id's root and the FHIR
   * identifier's system (`urn:oid:…`). When absent, the sending facility when it is an OID, else a UUID
   * derived from the practice (type UUID, `urn:uuid:…`).
   */
  assigningAuthorityOid: optional(
    z
      .string()
      .trim()
      .regex(/^[0-2](\.(0|[1-9]\d*))+$/, "Must be an ISO object identifier such as 2.16.840.1.113883.3.72."),
  ),
  /** MSH-11 of the HL7 messages sent to this interface: P (production, the default), T (training), D (debugging). */
  processingId: optional(z.enum(PROCESSING_IDS)),
  /**
   * SFTP: the server's host key as the admin confirmed it (shown by the connection check). Deliveries go
   * only to a server presenting this key.
   */
  hostKeySha256: optional(
    z
      .string()
      .trim()
      .regex(
        HOST_KEY_SHA256,
        "Must be a SHA-256 fingerprint such as SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU.",
      ),
  ),
  /** SFTP: permissions of the files written, in octal; 0600 (only the receiving account) when absent. */
  fileMode: optional(
    z
      .string()
      .trim()
      .regex(/^0?[0-7]{3}$/, "Must be an octal file mode such as 0600."),
  ),
});

/**
 * Body of POST /api/interfaces and PUT /api/interfaces/{id}. The `secret` (a password, private key or
 * bearer token) is write-only; on PUT an absent secret or absent settings keep the stored ones.
 */
export const InterfaceInputSchema = InterfaceFieldsSchema.extend({
  sendingApplication: HeaderTextInputSchema,
  sendingFacility: HeaderTextInputSchema,
  receivingApplication: HeaderTextInputSchema,
  receivingFacility: HeaderTextInputSchema,
  assigningAuthority: optional(HeaderTextInputSchema),
  secret: optional(z.string().max(20_000)),
  settings: InterfaceSettingsSchema.optional(),
});
export type InterfaceInput = z.infer<typeof InterfaceInputSchema>;

/** An interface as the API answers it: never the secret, only whether one is stored. */
export const InterfaceSchema = InterfaceFieldsSchema.extend({
  id: ObjectIdSchema,
  hasSecret: z.boolean(),
  settings: InterfaceSettingsSchema.default(DEFAULT_INTERFACE_SETTINGS),
});
export type Interface = z.infer<typeof InterfaceSchema>;

/** Query of GET /api/interfaces. */
export const InterfaceListQuerySchema = z.object({ type: InterfaceTypeSchema.optional() });

/** Answer of POST /api/interfaces/{id}/check-connection: the SFTP server's host key and whether it is the confirmed one. */
export const InterfaceCheckSchema = z.object({
  hostKeySha256: z.string(),
  /** True: the confirmed key; false: another key (deliveries are refused); null: no key confirmed yet. */
  matches: z.boolean().nullable(),
  /** The key matched and the account signed in and read the folder. */
  connected: z.boolean(),
  message: z.string(),
});
export type InterfaceCheck = z.infer<typeof InterfaceCheckSchema>;
