/**
 * CSV for spreadsheets (RFC 4180), safe to open in Excel, LibreOffice or Google Sheets.
 *
 * A cell a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return; OWASP "CSV Injection") is written with a leading apostrophe, so it shows as the text it is and
 * never runs. Cells holding a comma, a quote or a line break are quoted, quotes doubled.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised when it could be read as a formula, quoted when it must be. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, ended by CRLF as RFC 4180 asks. */
export function csvRow(cells: readonly (string | number | boolean | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** A UTF-8 byte order mark: without it Excel reads a CSV file's accented names in the wrong encoding. */
export const CSV_BOM = "\uFEFF";
