import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createSurvey, type Survey } from "@core-care/survey-engine";
import type { Report } from "@core-care/schema";
import { configureClient } from "../api/client";
import { createLocalCopy } from "./local-copy";
import {
  conflictQuestion,
  loadRemote,
  openDocument,
  saveFailedMessage,
  saveRemote,
  savedFields,
  type SaveDialogs,
} from "./remote-save";

interface Seen {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
}

/** A documents peer with the API's version rule (docs/api.md): POST must carry the stored version. */
class DocumentsPeer {
  documents = new Map<string, Record<string, unknown> & { version: number }>();
  seen: Seen[] = [];
  failNext: { status: number; message: string } | null = null;
  private server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://peer");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      this.seen.push({ method: req.method ?? "", url: `${url.pathname}${url.search}`, body });
      const send = (status: number, payload?: unknown) => {
        res.writeHead(status, payload === undefined ? {} : { "Content-Type": "application/json" });
        res.end(payload === undefined ? undefined : JSON.stringify(payload));
      };
      const match = /^\/api\/(surveys|reports)\/([0-9a-f]{24})$/.exec(url.pathname);
      if (!match) return send(404, { responseStatus: { status: 404, message: "Not found." } });
      const key = `${match[1]}/${match[2]}`;
      const stored = this.documents.get(key);
      if (req.method === "GET") {
        if (!stored) return send(404, { responseStatus: { status: 404, message: "Not found." } });
        const newerThan = url.searchParams.get("newerThan");
        if (newerThan !== null && stored.version <= Number(newerThan)) return send(204);
        return send(200, { ...stored, readOnly: false });
      }
      if (this.failNext) {
        const { status, message } = this.failNext;
        this.failNext = null;
        return send(status, { responseStatus: { status, message } });
      }
      const version = stored?.version ?? 0;
      if (body?.version !== version) {
        return send(409, {
          responseStatus: {
            status: 409,
            message: `This survey was changed by someone else (version ${version}).`,
            errorCode: version,
          },
        });
      }
      this.documents.set(key, { ...body, version: version + 1 });
      return send(200, { id: match[2], version: version + 1 });
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Dialog answers scripted per test, with every text shown recorded. */
class ScriptedDialogs implements SaveDialogs {
  alerts: string[] = [];
  confirms: string[] = [];
  answers: boolean[] = [];
  reloads = 0;
  signOuts = 0;
  alert(message: string): void {
    this.alerts.push(message);
  }
  confirm(message: string): boolean {
    this.confirms.push(message);
    return this.answers.shift() ?? false;
  }
  reload(): void {
    this.reloads += 1;
  }
  unauthorized(): void {
    this.signOuts += 1;
  }
}

const peer = new DocumentsPeer();
let dialogs: ScriptedDialogs;

beforeAll(async () => {
  configureClient({ baseUrl: await peer.start() });
});

afterAll(async () => {
  await peer.stop();
});

beforeEach(() => {
  window.localStorage.clear();
  peer.documents.clear();
  peer.seen = [];
  peer.failNext = null;
  dialogs = new ScriptedDialogs();
});

function editedSurvey(): Survey & { draftNote: string } {
  return { ...createSurvey({ title: "Intake" }), submitLabel: "Done", draftNote: "local only" };
}

describe("saveRemote", () => {
  test("sends only the spec's survey fields, then takes version + 1 and marks the copy saved", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = editedSurvey();
    local.write(survey, false);

    const outcome = await saveRemote("survey", survey, local, dialogs);

    expect(peer.seen).toHaveLength(1);
    expect(peer.seen[0]?.method).toBe("POST");
    expect(Object.keys(peer.seen[0]?.body ?? {}).sort()).toEqual(
      ["canSubscribeTo", "description", "id", "pages", "sections", "title", "version"].sort(),
    );
    expect(outcome).toEqual({ status: "saved", document: { ...survey, version: 1 } });
    expect(local.read()).toEqual({ document: { ...survey, version: 1 }, saved: true });
    expect(dialogs.alerts).toEqual([]);
  });

  test("sends a report's title, script, markup, mock and clinical flag", () => {
    const report: Report & { extra: number } = {
      id: "5f0c6d2e9b1e8a3c4d5e6f70",
      title: "Monthly",
      script: "return {}",
      markup: "<p></p>",
      mock: [],
      clinical: false,
      version: 2,
      extra: 1,
    };
    expect(savedFields("report", report)).toEqual({
      id: report.id,
      title: "Monthly",
      script: "return {}",
      markup: "<p></p>",
      mock: [],
      clinical: false,
      version: 2,
    });
  });

  test("alerts 'Failed to save remotely' and keeps the copy unsaved when the error has no numeric code", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = editedSurvey();
    peer.failNext = { status: 500, message: "Something went wrong." };

    const outcome = await saveRemote("survey", survey, local, dialogs);

    expect(outcome).toEqual({ status: "failed", message: "Something went wrong." });
    expect(dialogs.alerts).toEqual(["Failed to save remotely: Something went wrong."]);
    expect(saveFailedMessage("x")).toBe("Failed to save remotely: x");
    expect(local.read()).toEqual({ document: survey, saved: false });
    expect(dialogs.confirms).toEqual([]);
  });

  test("overwrites with the server's version and retries when the conflict is answered Yes", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = editedSurvey();
    peer.documents.set(`surveys/${survey.id}`, { ...survey, title: "Theirs", version: 4 });
    dialogs.answers = [true];

    const outcome = await saveRemote("survey", survey, local, dialogs);

    const message = "This survey was changed by someone else (version 4).";
    expect(dialogs.confirms).toEqual([
      `${message} Would you like to overwrite their changes (otherwise, you will lose your changes)?`,
    ]);
    expect(conflictQuestion(message)).toBe(dialogs.confirms[0]);
    expect(peer.seen.map((s) => s.body?.version)).toEqual([0, 4]);
    expect(outcome).toEqual({ status: "saved", document: { ...survey, version: 5 } });
    expect(peer.documents.get(`surveys/${survey.id}`)?.title).toBe("Intake");
    expect(local.read()?.saved).toBe(true);
    expect(dialogs.reloads).toBe(0);
  });

  test("marks the copy saved and reloads when the conflict is answered No", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = editedSurvey();
    peer.documents.set(`surveys/${survey.id}`, { ...survey, title: "Theirs", version: 2 });
    dialogs.answers = [false];

    const outcome = await saveRemote("survey", survey, local, dialogs);

    expect(outcome).toEqual({ status: "discarded" });
    expect(peer.seen).toHaveLength(1);
    expect(dialogs.reloads).toBe(1);
    expect(local.read()).toEqual({ document: survey, saved: true });
    expect(peer.documents.get(`surveys/${survey.id}`)?.title).toBe("Theirs");
  });

  test("keeps the unsaved copy and signs out when the session has ended", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = editedSurvey();
    peer.failNext = { status: 401, message: "Not signed in." };

    const outcome = await saveRemote("survey", survey, local, dialogs);

    expect(outcome.status).toBe("failed");
    expect(dialogs.signOuts).toBe(1);
    expect(local.read()).toEqual({ document: survey, saved: false });
  });
});

describe("loadRemote", () => {
  test("asks with newerThan and answers undefined when the server's copy is not newer", async () => {
    const survey = createSurvey();
    peer.documents.set(`surveys/${survey.id}`, { ...survey, version: 3 });

    expect(await loadRemote("survey", survey.id, 3)).toBeUndefined();
    expect(await loadRemote("survey", survey.id, 2)).toMatchObject({ id: survey.id, version: 3 });
    expect(peer.seen.map((s) => s.url)).toEqual([
      `/api/surveys/${survey.id}?newerThan=3`,
      `/api/surveys/${survey.id}?newerThan=2`,
    ]);
  });
});

describe("openDocument", () => {
  test("uses the local copy when the server has nothing newer", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = { ...createSurvey({ title: "Mine" }), version: 3 };
    peer.documents.set(`surveys/${survey.id}`, { ...survey, title: "Server", version: 3 });
    local.write(survey, true);

    const opened = await openDocument("survey", survey.id, local);

    expect(opened).toEqual({ document: survey, saved: true, readOnly: false, source: "local" });
  });

  test("takes and stores the server's copy when it is newer than a saved local copy", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = { ...createSurvey({ title: "Old" }), version: 1 };
    local.write(survey, true);
    peer.documents.set(`surveys/${survey.id}`, { ...survey, title: "New", version: 2 });

    const opened = await openDocument("survey", survey.id, local);

    expect(opened.source).toBe("server");
    expect(opened.document).toMatchObject({ title: "New", version: 2 });
    expect(opened.document).not.toHaveProperty("readOnly");
    expect(local.read()).toMatchObject({ document: { title: "New", version: 2 }, saved: true });
  });

  test("keeps unsaved local edits over a newer server copy so their save meets the conflict question", async () => {
    const local = createLocalCopy<Survey>("survey");
    const survey = { ...createSurvey({ title: "Edited" }), version: 1 };
    local.write(survey, false);
    peer.documents.set(`surveys/${survey.id}`, { ...survey, title: "Theirs", version: 2 });

    const opened = await openDocument("survey", survey.id, local);

    expect(opened).toMatchObject({
      source: "local",
      saved: false,
      document: { title: "Edited", version: 1 },
    });
  });

  test("downloads without newerThan when the local copy is another document", async () => {
    const local = createLocalCopy<Survey>("survey");
    local.write(createSurvey(), false);
    const other = { ...createSurvey({ title: "Other" }), version: 1 };
    peer.documents.set(`surveys/${other.id}`, other);

    const opened = await openDocument("survey", other.id, local);

    expect(peer.seen[0]?.url).toBe(`/api/surveys/${other.id}`);
    expect(opened.document.title).toBe("Other");
    expect(local.lastId()).toBe(other.id);
  });

  test("opens a new survey that exists only in the local copy", async () => {
    const local = createLocalCopy<Survey>("survey");
    const fresh = createSurvey({ title: "Draft" });
    local.write(fresh, false);

    const opened = await openDocument("survey", fresh.id, local);

    expect(opened).toEqual({ document: fresh, saved: false, readOnly: false, source: "local" });
    expect(peer.seen).toEqual([]);
  });

  test("fails when the document is neither on the server nor in the local copy", async () => {
    const local = createLocalCopy<Survey>("survey");
    await expect(openDocument("survey", createSurvey().id, local)).rejects.toMatchObject({ status: 404 });
  });
});
