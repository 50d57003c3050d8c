import { describe, expect, test } from "vitest";
import { redactUrl, scrubText, serializeError } from "./logging.js";

describe("redactUrl", () => {
  test.each([
    ["/api/patients?q=smith", "/api/patients?[redacted]"],
    ["/api/auth/passwords/jane%40example.test", "/api/auth/passwords/:email"],
    ["/api/users/jane@example.test", "/api/users/:email"],
    ["/auth/teleawv?tenant=demo&ptEmail=a%40b.c", "/auth/teleawv?[redacted]"],
    ["/api/patients/65a1b2c3d4e5f60718293a4b", "/api/patients/65a1b2c3d4e5f60718293a4b"],
  ])("logs %s as %s", (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe("serializeError", () => {
  test("drops the bound parameters of a failed query and e-mail addresses", () => {
    const err = new Error(
      'Failed query: insert into "patients" ("first_name", "email") values ($1, $2)\nparams: Zebedee,zeb@example.test',
    );
    const logged = JSON.stringify(serializeError(err));
    expect(logged).not.toContain("Zebedee");
    expect(logged).not.toContain("zeb@example.test");
    expect(logged).toContain("params: [redacted]");
    expect(logged).toContain('insert into \\"patients\\"');
  });

  test("carries a failed query's cause, its code and message, without the value it quotes", () => {
    const driverError = Object.assign(new Error('invalid input syntax for type integer: "Zebedee"'), {
      code: "22P02",
    });
    const err = new Error("Failed query: select $1::int\nparams: Zebedee", { cause: driverError });
    const logged = serializeError(err);
    expect(logged.cause).toMatchObject({
      code: "22P02",
      message: 'invalid input syntax for type integer: "[redacted]"',
    });
    expect(JSON.stringify(logged)).not.toContain("Zebedee");
  });

  test("scrubs e-mail addresses from free text", () => {
    expect(scrubText("mail to jane.doe@example.test failed")).toBe("mail to [email] failed");
  });
});
