import { describe, expect, test } from "vitest";
import { actionWords, auditQuery, detailsText, entityWords, recordLink } from "./audit-words";

describe("audit words", () => {
  test("says actions and records in words, and keeps one it does not know as it is", () => {
    expect(actionWords("login-failed")).toBe("Sign-in failed");
    expect(actionWords("something-new")).toBe("something-new");
    expect(actionWords("stall-mail")).toBe("E-mailed the admins: queue stalled");
    expect(entityWords({ action: "send", entity: "delivery:failed" })).toBe("Delivery (failed)");
    expect(entityWords({ action: "list", entity: "delivery" })).toBe("Delivery log of a survey result");
  });

  test("links the records the portal can open", () => {
    const id = "6b08c99afd6b1abe1e2322a7";
    expect(recordLink({ action: "read", entity: "patient", entityId: id })).toBe(`/patients/${id}`);
    expect(recordLink({ action: "list", entity: "delivery", entityId: id })).toBe(`/results/${id}`);
    expect(recordLink({ action: "send", entity: "delivery", entityId: id })).toBeUndefined();
    expect(recordLink({ action: "login", entity: "session", entityId: null })).toBeUndefined();
  });

  test("writes details as text", () => {
    expect(detailsText({ from: ["user"], to: ["user", "admin"], reason: "idle" })).toBe(
      "from: user; to: user, admin; reason: idle",
    );
    expect(detailsText(null)).toBe("");
  });
});

describe("auditQuery", () => {
  test("sends the days as instants of the browser's day, the last one through its end", () => {
    const query = auditQuery({
      user: " staff ",
      patientId: "",
      action: "read",
      from: "2026-11-20",
      to: "2026-11-21",
    });
    expect(query.user).toBe("staff");
    expect(query.action).toBe("read");
    expect(query.patientId).toBeUndefined();
    expect(new Date(query.from ?? "").getTime()).toBe(new Date(2026, 10, 20).getTime());
    expect(new Date(query.to ?? "").getTime()).toBe(new Date(2026, 10, 22).getTime());
  });

  test("leaves out a malformed day", () => {
    expect(auditQuery({ user: "", patientId: "", action: "", from: "yesterday", to: "" })).toEqual({});
  });
});
