import { formToJson } from "@core-care/survey-engine";

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

/**
 * The fields of a form as `FormData` would collect them on submit, except that disabled fields are
 * included (SPEC 5): checked checkboxes and radios, selected options, text and chosen files; buttons skipped.
 */
export function formData(form: HTMLFormElement): FormData {
  const data = new FormData();
  for (const element of Array.from(form.elements)) {
    if (element instanceof HTMLSelectElement) {
      if (!element.name) continue;
      for (const option of Array.from(element.selectedOptions)) {
        if (!option.disabled) data.append(element.name, option.value);
      }
    } else if (element instanceof HTMLTextAreaElement) {
      if (element.name) data.append(element.name, element.value);
    } else if (element instanceof HTMLInputElement && element.name) {
      switch (element.type) {
        case "submit":
        case "button":
        case "reset":
        case "image":
          break;
        case "checkbox":
        case "radio":
          if (element.checked) data.append(element.name, element.value);
          break;
        case "file":
          for (const file of Array.from(element.files ?? [])) data.append(element.name, file);
          break;
        default:
          data.append(element.name, element.value);
      }
    }
  }
  return data;
}

/** A form's submit payload (SPEC 5): nested JSON by field name, blank values omitted, disabled fields included. */
export function formJson(form: HTMLFormElement): Record<string, unknown> {
  return formToJson(formData(form));
}
