import { createHash } from "node:crypto";

/** A name-based UUID (RFC 9562 version 5, SHA-1) so that rebuilt documents keep their identifiers. */
export function nameUuid(name: string): string {
  const hash = createHash("sha1").update("core-care:").update(name).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id (root) of the CDA document a delivery carries; TXA-12 of its MDM^T02 names it too. */
export function cdaDocumentId(input: { controlId: string }): string {
  return nameUuid(`${input.controlId}:document`);
}
