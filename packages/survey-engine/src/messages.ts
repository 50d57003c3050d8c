import type { MessageId, ValidationCode, ValidationIssue } from "./types.js";

/**
 * Every English text the engine's issues carry. The first five are the spec's exact wording (SPEC 5,
 * note the two spaces in `painLocationRequired`); `{name}`-style placeholders are filled by `formatMessage`.
 */
export const MESSAGES = {
  required: "This field is required.",
  fieldRequired: 'Field "{name}" is required.',
  dietRequired: 'Please select "I don\'t follow a diet" or the diet(s) you follow.',
  householdRequired: 'Please select "I live alone" or indicate the members of your household.',
  painLocationRequired:
    "You indicated you experienced pain in the last 3 months.  Please indicate where you are hurting.",
  noneExclusive: 'Please choose either "{none}" or other options, not both.',
  invalidNumber: "Please enter a number.",
  outOfRange: "Please enter a value from {min} to {max}.",
  belowMin: "Please enter a value of at least {min}.",
  aboveMax: "Please enter a value of at most {max}.",
  invalidEmail: "Please enter a valid e-mail address.",
  invalidDate: "Please enter a valid date (YYYY-MM-DD).",
  invalidPhone: "Please enter digits only.",
  invalidChoice: "Please choose one of the options.",
} as const satisfies Record<MessageId, string>;

/** Replaces each `{key}` in a message with `params[key]`; unknown keys stay as written. */
export function formatMessage(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(params, key) ? String(params[key]) : whole,
  );
}

/** An issue whose text is the engine message `id` filled with `params`. */
export function issue(
  code: ValidationCode,
  field: string,
  id: MessageId,
  params?: Readonly<Record<string, string | number>>,
): ValidationIssue {
  const message = params === undefined ? MESSAGES[id] : formatMessage(MESSAGES[id], params);
  return params === undefined
    ? { code, field, message, messageId: id }
    : { code, field, message, messageId: id, params };
}
