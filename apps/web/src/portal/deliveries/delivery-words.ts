import type { DeliveryListItem, DeliveryStatus, InterfaceType } from "@core-care/schema";

/** The status filters of the Deliveries screen, in the order staff meet them, with their words. */
export const STATUS_FILTERS: readonly (readonly [DeliveryStatus, string])[] = [
  ["pending", "Queued"],
  ["sending", "Sending"],
  ["delivered", "Delivered"],
  ["failed", "Failed"],
  ["skipped", "Skipped"],
  ["cancelled", "Cancelled"],
];

/** A delivery's status in words ("pending" is "Queued": waiting for its turn or its next attempt). */
export function statusWords(status: DeliveryStatus): string {
  return STATUS_FILTERS.find(([s]) => s === status)?.[1] ?? status;
}

/** What an interface is, in words: the format it takes and how it travels. */
export function interfaceKind(type: InterfaceType | null): string {
  switch (type) {
    case "hl7-mllp":
      return "HL7 v2 over MLLP";
    case "cda-mllp":
      return "CDA over MLLP";
    case "cda-sftp":
      return "CDA file over SFTP";
    case "sftp":
      return "HL7 file over SFTP";
    case "fhir-http":
      return "FHIR over HTTPS";
    case null:
      return "Removed interface";
  }
}

/** The status query of the list: a known status, or none for every delivery. */
export function statusQuery(value: string | null): DeliveryStatus | "" {
  return STATUS_FILTERS.some(([s]) => s === value) ? (value as DeliveryStatus) : "";
}

/**
 * The message as it is shown: HL7 v2 separates segments with a carriage return alone, which a browser
 * would not break lines on, so each segment gets a line of its own. Other documents are shown as sent.
 */
export function messageForDisplay(text: string): string {
  return text.startsWith("MSH") ? text.replace(/\r\n?/g, "\n") : text;
}

/** A row's name for screen readers and action labels. */
export function deliveryLabel(d: DeliveryListItem): string {
  return `${d.format.toUpperCase()} for ${d.patientName ?? "a removed result"} to ${d.interfaceName ?? "a removed interface"}`;
}
