const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An ISO date-time as an HL7 v2 / CDA TS in UTC: YYYYMMDDHHMMSS+0000. */
export function hl7Timestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw new Error(`invalid date-time: ${iso}`);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}+0000`
  );
}

/** A YYYY-MM-DD date as YYYYMMDD. */
export function hl7Date(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error("invalid date");
  return date.replaceAll("-", "");
}
