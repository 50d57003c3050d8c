import { and, asc, eq, type SQL } from "drizzle-orm";
import { objectId } from "@core-care/survey-engine";
import {
  InterfaceSettingsSchema,
  type Interface,
  type InterfaceInput,
  type InterfaceSettings,
  type InterfaceType,
} from "@core-care/schema";
import type { DbOrTx } from "../db/index.js";
import { interfaces } from "../db/schema.js";
import { notFound } from "../errors.js";

type InterfaceRow = typeof interfaces.$inferSelect;

/** An interface's delivery settings, the defaults filling whatever it does not store. */
export function interfaceSettings(row: Pick<InterfaceRow, "settings">): InterfaceSettings {
  const parsed = InterfaceSettingsSchema.safeParse(row.settings);
  return parsed.success ? parsed.data : InterfaceSettingsSchema.parse({});
}

/** An interface as the API answers it: the secret never leaves, only whether one is stored. */
function toInterface(row: InterfaceRow): Interface {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    host: row.host,
    port: row.port,
    ...(row.username === null ? {} : { username: row.username }),
    ...(row.path === null ? {} : { path: row.path }),
    sendingApplication: row.sendingApplication,
    sendingFacility: row.sendingFacility,
    receivingApplication: row.receivingApplication,
    receivingFacility: row.receivingFacility,
    ...(row.assigningAuthority === "" ? {} : { assigningAuthority: row.assigningAuthority }),
    ...(row.assigningAuthorityOid === null ? {} : { assigningAuthorityOid: row.assigningAuthorityOid }),
    settings: interfaceSettings(row),
    processingId: row.processingId,
    ...(row.hostKeySha256 === null ? {} : { hostKeySha256: row.hostKeySha256 }),
    ...(row.fileMode === null ? {} : { fileMode: `0${row.fileMode.toString(8)}` }),
    hasSecret: row.secret !== null && row.secret !== "",
  };
}

export async function listInterfaces(
  db: DbOrTx,
  tenantId: string,
  type?: InterfaceType,
): Promise<Interface[]> {
  const conditions: SQL[] = [eq(interfaces.tenantId, tenantId)];
  if (type !== undefined) conditions.push(eq(interfaces.type, type));
  const rows = await db
    .select()
    .from(interfaces)
    .where(and(...conditions))
    .orderBy(asc(interfaces.name));
  return rows.map(toInterface);
}

/** The stored interface row, secret included, for the delivery transports only. */
export async function getInterfaceWithSecret(
  db: DbOrTx,
  tenantId: string,
  id: string,
): Promise<InterfaceRow> {
  const [row] = await db
    .select()
    .from(interfaces)
    .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, id)));
  if (row === undefined) throw notFound("Interface");
  return row;
}

export async function getInterface(db: DbOrTx, tenantId: string, id: string): Promise<Interface> {
  return toInterface(await getInterfaceWithSecret(db, tenantId, id));
}

function columns(input: InterfaceInput) {
  return {
    name: input.name,
    type: input.type,
    host: input.host,
    port: input.port,
    username: input.username ?? null,
    path: input.path ?? null,
    sendingApplication: input.sendingApplication,
    sendingFacility: input.sendingFacility,
    receivingApplication: input.receivingApplication,
    receivingFacility: input.receivingFacility,
    assigningAuthority: input.assigningAuthority ?? "",
    assigningAuthorityOid: input.assigningAuthorityOid ?? null,
    // Absent on a PUT: kept as stored (the web form edits no host key; a new key is confirmed through
    // check-connection). Absent on a POST: the defaults (P, no key, 0600).
    ...(input.processingId === undefined ? {} : { processingId: input.processingId }),
    ...(input.hostKeySha256 === undefined ? {} : { hostKeySha256: input.hostKeySha256 }),
    ...(input.fileMode === undefined ? {} : { fileMode: parseInt(input.fileMode, 8) }),
  };
}

export async function createInterface(
  db: DbOrTx,
  tenantId: string,
  input: InterfaceInput,
): Promise<Interface> {
  const id = objectId();
  await db.insert(interfaces).values({
    tenantId,
    id,
    ...columns(input),
    secret: input.secret ?? null,
    settings: input.settings ?? {},
  });
  return getInterface(db, tenantId, id);
}

/** Updates an interface; an absent secret, settings, processing id, host key or file mode keeps the stored one. */
export async function updateInterface(
  db: DbOrTx,
  tenantId: string,
  id: string,
  input: InterfaceInput,
): Promise<Interface> {
  const updated = await db
    .update(interfaces)
    .set({
      ...columns(input),
      ...(input.secret === undefined ? {} : { secret: input.secret }),
      ...(input.settings === undefined ? {} : { settings: input.settings }),
      updatedAt: new Date(),
    })
    .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, id)))
    .returning({ id: interfaces.id });
  if (updated.length === 0) throw notFound("Interface");
  return getInterface(db, tenantId, id);
}

export async function deleteInterface(db: DbOrTx, tenantId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(interfaces)
    .where(and(eq(interfaces.tenantId, tenantId), eq(interfaces.id, id)))
    .returning({ id: interfaces.id });
  if (deleted.length === 0) throw notFound("Interface");
}

/** Where a delivery to an SFTP interface goes: the row's target, host key pin and file mode. */
export function sftpTargetOf(row: InterfaceRow) {
  return {
    host: row.host,
    port: row.port,
    username: row.username ?? "",
    ...(row.secret ? { secret: row.secret } : {}),
    ...(row.path ? { path: row.path } : {}),
    ...(row.hostKeySha256 ? { hostKeySha256: row.hostKeySha256 } : {}),
    ...(row.fileMode === null ? {} : { fileMode: row.fileMode }),
  };
}
