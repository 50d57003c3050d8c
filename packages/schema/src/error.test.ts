import { describe, expect, test } from "vitest";
import { ErrorResponseSchema } from "./error.js";

describe("ErrorResponseSchema", () => {
  test("accepts the spec's responseStatus shape with field errors", () => {
    const parsed = ErrorResponseSchema.parse({
      responseStatus: { status: 400, message: "Bad", errors: [{ field: "email", message: "Required" }] },
    });
    expect(parsed.responseStatus.errors?.[0]?.field).toBe("email");
  });
});
