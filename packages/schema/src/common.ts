import { z } from "zod";

/** A 24-character lowercase hexadecimal id, as `objectId()` of the survey engine makes (SPEC 3, 9). */
export const ObjectIdSchema = z.string().regex(/^[0-9a-f]{24}$/, "Must be a 24-character hexadecimal id.");
export type ObjectId = z.infer<typeof ObjectIdSchema>;

/**
 * Survey and report ids: objectIds for designed ones, short slugs for the built-in ones the engine ships.
 */
export const DocumentIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    "Must be a letter or digit followed by up to 63 of [A-Za-z0-9_-].",
  );
export type DocumentId = z.infer<typeof DocumentIdSchema>;

/** Tenant ids are slugs such as `demo` or `sc-duncan-corecarefp` (SPEC 4). */
export const TenantIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "Must be lowercase letters, digits and hyphens.");
export type TenantId = z.infer<typeof TenantIdSchema>;

/** E-mail addresses are compared case-insensitively, so they travel trimmed and in lower case. */
export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("Must be an e-mail address.").max(254));

/** ISO-8601 timestamp as sent on the wire. */
export const TimestampSchema = z.iso.datetime({ offset: true });

/** A name or title typed by a person: trimmed, not blank. */
export const NameSchema = z.string().trim().min(1, "This field is required.").max(200);

/** Page number of a list, 1-based (SPEC 9). */
export const PageQuerySchema = z.coerce.number().int().min(1).max(1_000_000).default(1);

/** List page size (SPEC 9: list page size 200). */
export const PAGE_SIZE = 200;

/** The list envelope every list call answers: `{ items, total }`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().min(0) });
}

/**
 * Lists that may hold a million rows count at most this many: past it `total` says TOTAL_CAP and
 * `totalCapped` is true (shown as "1,000+"), so no request counts a whole table.
 */
export const TOTAL_CAP = 1000;

/** An opaque keyset cursor of a paged list (`nextCursor` / `prevCursor` of its last answer). */
export const CursorSchema = z
  .string()
  .max(1000)
  .regex(/^[A-Za-z0-9_-]+$/, "Must be a cursor from the list's last answer.");

/**
 * A keyset-paged list's envelope: `{ items, total }` as every list, plus whether the total was capped
 * and the cursors of the pages after and before this one (null at either end).
 */
export function pagedListOf<T extends z.ZodType>(item: T) {
  return listOf(item).extend({
    totalCapped: z.boolean(),
    nextCursor: z.string().nullable(),
    prevCursor: z.string().nullable(),
  });
}

/** A keyset-paged list as the API answers it ({@link pagedListOf}). */
export interface PagedList<T> {
  items: T[];
  /** At most {@link TOTAL_CAP}; past it `totalCapped` is true. */
  total: number;
  totalCapped: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}

/** `{ id }` answers of creating calls. */
export const IdResponseSchema = z.object({ id: z.string() });
export type IdResponse = z.infer<typeof IdResponseSchema>;

/**
 * A yes/no flag that may arrive as a boolean, or as the strings a form or query string produces.
 */
export const FlagSchema = z.preprocess((v) => {
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    if (s === "true" || s === "1" || s === "yes" || s === "on") return true;
    if (s === "false" || s === "0" || s === "no" || s === "off" || s === "") return false;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
}, z.boolean());
