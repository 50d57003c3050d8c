/**
 * Batch upload of results (docs/api.md, "Batch upload"), in three steps: `parse.ts` reads the bytes into
 * records (CSV by csv-parse, NDJSON, a JSON array), `map.ts` makes rows of them and checks each row's own
 * fields, and `import.ts` stores the rows a chunk at a time with their deliveries.
 */
export { parseCsv } from "./parse.js";
export { csvRows, ndjsonRows, parseUpload, type RawRow } from "./map.js";
export { batchUpload, MAX_BATCH_ROWS } from "./import.js";
