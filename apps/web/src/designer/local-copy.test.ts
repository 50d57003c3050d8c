import { beforeEach, describe, expect, test } from "vitest";
import { createLocalCopy, documentKey, lastIdKey, type StorageLog } from "./local-copy";

interface Doc {
  id: string;
  version: number;
  title: string;
}

class RecordingLog implements StorageLog {
  lines: string[] = [];
  error(message: string): void {
    this.lines.push(message);
  }
}

/** A Storage whose reads fail, like a browser with storage disabled by policy. */
class DeniedStorage implements Storage {
  length = 0;
  clear(): void {}
  key(): string | null {
    return null;
  }
  getItem(): string | null {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
  removeItem(): void {}
  setItem(): void {
    throw new DOMException("The operation is insecure.", "SecurityError");
  }
}

beforeEach(() => {
  window.localStorage.clear();
});

describe("createLocalCopy", () => {
  test("stores the document under the entity name and its id under the entity name plus _last_id", () => {
    const copy = createLocalCopy<Doc>("survey", window.localStorage, new RecordingLog());
    expect(copy.write({ id: "a1", version: 3, title: "Intake" }, false)).toBe(true);

    expect(lastIdKey("survey")).toBe("survey_last_id");
    expect(window.localStorage.getItem("survey_last_id")).toBe("a1");
    expect(JSON.parse(window.localStorage.getItem("survey") ?? "null")).toEqual({
      document: { id: "a1", version: 3, title: "Intake" },
      saved: false,
    });
    expect(copy.read()).toEqual({ document: { id: "a1", version: 3, title: "Intake" }, saved: false });
    expect(copy.lastId()).toBe("a1");
  });

  test("keeps surveys and reports apart", () => {
    const surveys = createLocalCopy<Doc>("survey");
    const reports = createLocalCopy<Doc>("report");
    surveys.write({ id: "s", version: 1, title: "S" }, true);
    reports.write({ id: "r", version: 2, title: "R" }, false);

    expect(surveys.read()?.document.id).toBe("s");
    expect(reports.read()).toEqual({ document: { id: "r", version: 2, title: "R" }, saved: false });
    expect(window.localStorage.getItem("report_last_id")).toBe("r");
  });

  test("clears the stored value when the storage quota is exceeded", () => {
    const log = new RecordingLog();
    const copy = createLocalCopy<Doc>("survey", window.localStorage, log);
    copy.write({ id: "small", version: 1, title: "fits" }, true);

    const written = copy.write({ id: "huge", version: 1, title: "x".repeat(6_000_000) }, false);

    expect(written).toBe(false);
    expect(window.localStorage.getItem("survey")).toBeNull();
    expect(copy.read()).toBeNull();
    expect(log.lines).toEqual(["Browser storage is full; the local survey copy was cleared."]);
  });

  test("only logs when storage cannot be read", () => {
    const log = new RecordingLog();
    const copy = createLocalCopy<Doc>("report", new DeniedStorage(), log);

    expect(copy.read()).toBeNull();
    expect(copy.lastId()).toBeNull();
    expect(log.lines).toEqual([
      "Could not read the local report copy (SecurityError).",
      "Could not read the last edited report id (SecurityError).",
    ]);
  });

  test("only logs when the stored text is not a document", () => {
    const log = new RecordingLog();
    window.localStorage.setItem("survey", "{not json");
    const copy = createLocalCopy<Doc>("survey", window.localStorage, log);

    expect(copy.read()).toBeNull();
    window.localStorage.setItem("survey", JSON.stringify({ document: { title: "no id" } }));
    expect(copy.read()).toBeNull();
    expect(log.lines).toEqual([
      "Could not read the local survey copy (SyntaxError).",
      "The local survey copy has an unknown shape and is ignored.",
    ]);
  });

  test("keeps a document's unsaved edits under its own key when another document becomes current", () => {
    const copy = createLocalCopy<Doc>("survey");
    copy.write({ id: "a", version: 2, title: "A edited" }, false);
    copy.write({ id: "b", version: 5, title: "B" }, true);

    expect(copy.read()?.document.id).toBe("b");
    expect(copy.lastId()).toBe("b");
    expect(documentKey("survey", "a")).toBe("survey:a");
    expect(copy.readFor("a")).toEqual({ document: { id: "a", version: 2, title: "A edited" }, saved: false });
    expect(copy.readFor("b")).toEqual({ document: { id: "b", version: 5, title: "B" }, saved: true });
    expect(window.localStorage.getItem("survey:b")).toBeNull();
    expect(copy.readFor("c")).toBeNull();
  });

  test("drops a document's own copy once it is saved", () => {
    const copy = createLocalCopy<Doc>("report");
    copy.write({ id: "r", version: 1, title: "edited" }, false);
    expect(window.localStorage.getItem("report:r")).not.toBeNull();
    copy.write({ id: "r", version: 2, title: "edited" }, true);
    expect(window.localStorage.getItem("report:r")).toBeNull();
    expect(copy.readFor("r")?.saved).toBe(true);
  });

  test("removes the copy and the last id on clear", () => {
    const copy = createLocalCopy<Doc>("survey");
    copy.write({ id: "gone", version: 1, title: "" }, true);
    copy.clear();
    expect(copy.read()).toBeNull();
    expect(copy.lastId()).toBeNull();
  });
});
