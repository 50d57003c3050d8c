/** The text of a form field by name ('' when absent or a file). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/** A value as display text: strings as they are, numbers and booleans in words, objects as JSON, nothing as ''. */
export function toText(value: unknown): string {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "boolean":
    case "bigint":
      return String(value);
    case "object":
      return value === null ? "" : JSON.stringify(value);
    case "undefined":
    case "symbol":
    case "function":
      return "";
  }
}
