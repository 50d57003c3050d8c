import { BlockList, isIPv4, isIPv6 } from "node:net";
import { eq, sql } from "drizzle-orm";
import type { InboundProcessingId, InboundSender, InboundSendersBody } from "@core-care/schema";
import type { Db } from "../db/index.js";
import { tenants } from "../db/schema.js";
import { notFound } from "../errors.js";

/** The processing id a practice applies when it names none: production. */
export const DEFAULT_PROCESSING_ID: InboundProcessingId = "P";

export async function getInboundSenders(db: Db, tenantId: string): Promise<InboundSendersBody> {
  const [row] = await db
    .select({ settings: tenants.settings })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .limit(1);
  if (row === undefined) throw notFound("Tenant");
  return {
    senders: row.settings.inboundSenders ?? [],
    processingId: row.settings.inboundProcessingId ?? DEFAULT_PROCESSING_ID,
  };
}

/** Replaces the practice's senders and processing id, leaving its other settings as they are. */
export async function setInboundSenders(
  db: Db,
  tenantId: string,
  body: InboundSendersBody,
): Promise<InboundSendersBody> {
  const updated = await db
    .update(tenants)
    .set({
      settings: sql`${tenants.settings} || ${JSON.stringify({
        inboundSenders: body.senders,
        inboundProcessingId: body.processingId,
      })}::jsonb`,
      updatedAt: new Date(),
    })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id });
  if (updated.length === 0) throw notFound("Tenant");
  return getInboundSenders(db, tenantId);
}

/** HD (MSH-3, MSH-4): its namespace id and universal id, without case. */
const hdNames = (hd: readonly string[]) =>
  [hd[0], hd[1]].map((v) => v?.trim().toLowerCase() ?? "").filter((v) => v !== "");

/** A peer address as the socket reports it, IPv4-mapped IPv6 (`::ffff:10.1.2.3`) read as IPv4. */
export function peerAddress(address: string | undefined): { address: string; family: "ipv4" | "ipv6" } {
  const raw = address ?? "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw)?.[1];
  if (mapped !== undefined) return { address: mapped, family: "ipv4" };
  return { address: raw, family: isIPv6(raw) ? "ipv6" : "ipv4" };
}

/** Whether an address is one of a sender's addresses or networks. */
function addressAllowed(addresses: readonly string[], peer: string): boolean {
  const { address, family } = peerAddress(peer);
  if (!isIPv4(address) && !isIPv6(address)) return false;
  const list = new BlockList();
  for (const entry of addresses) {
    const [net, prefix] = entry.split("/");
    const entryFamily = isIPv6(net ?? "") ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(net!, entryFamily);
    else list.addSubnet(net!, Number(prefix), entryFamily);
  }
  return list.check(address, family);
}

export type SenderCheck = { ok: true } | { ok: false; location: "MSH-3" | "MSH-4"; text: string };

/**
 * Whether a message comes from one of the practice's senders: its sending application (MSH-3) and
 * facility (MSH-4) those of an entry, and its connection from one of that entry's addresses.
 */
export function checkSender(
  senders: readonly InboundSender[],
  application: readonly string[],
  facility: readonly string[],
  peer: string,
): SenderCheck {
  const applications = hdNames(application);
  const facilities = hdNames(facility);
  const named = (hd: readonly string[]) => hd.filter((v) => v !== "").join("^") || "(none)";
  const who = `${named(application)} of ${named(facility)} (MSH-3, MSH-4) at ${peerAddress(peer).address || "an unknown address"}`;
  const sameFacility = senders.filter((s) => facilities.includes(s.facility.toLowerCase()));
  if (sameFacility.length === 0) {
    return {
      ok: false,
      location: "MSH-4",
      text: `The sender ${who} is not one of this practice's senders.`,
    };
  }
  const same = sameFacility.filter((s) => applications.includes(s.application.toLowerCase()));
  if (same.length === 0) {
    return {
      ok: false,
      location: "MSH-3",
      text: `The sender ${who} is not one of this practice's senders.`,
    };
  }
  if (!same.some((s) => addressAllowed(s.addresses, peer))) {
    return {
      ok: false,
      location: "MSH-4",
      text: `The sender ${who} does not send from this address.`,
    };
  }
  return { ok: true };
}
