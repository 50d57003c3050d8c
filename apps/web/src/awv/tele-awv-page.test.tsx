import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import {
  isQuestionVisible,
  setAnswer,
  setSelectedValues,
  teleAwvSurvey,
  type Answers,
} from "@core-care/survey-engine";
import { configureClient } from "../api/client";
import { i18n } from "../i18n/i18n";
import TeleAwvPage from "./tele-awv-page";
import { hiddenFields, questionnaireContext, TELE_AWV_LINK_ERROR } from "./tele-awv-form";

const LINK =
  "/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa&ptEmail=pat%40example.org&ptS=true&ptPY=true&pt100=true#token=" +
  "t".repeat(43);

interface Received {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

// A real HTTP peer on 127.0.0.1 stands in for the API.
let server: Server;
let received: Received[] = [];
let linkState: "open" | "used" | "expired" = "open";
let draft: { answers: Answers; pageIndex: number; language: string; savedAt: string } | null = null;
let submitStatus = 200;
beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      const path = request.url ?? "";
      received.push({
        method: request.method ?? "",
        path,
        authorization: request.headers.authorization,
        body: JSON.parse(text || "null") as unknown,
      });
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      if (path === "/api/auth/teleawv/link") {
        send(200, {
          state: linkState,
          practice: { name: "Maple Family Practice" },
          language: "en",
          expiresAt: "2030-01-01T00:00:00.000Z",
          draft,
        });
      } else if (path === "/api/auth/teleawv/draft") {
        send(200, { savedAt: new Date().toISOString() });
      } else if (submitStatus === 200) {
        send(200, { id: "64a1c0de00000000000000bb", safetyAlert: false });
      } else {
        send(submitStatus, { responseStatus: { status: submitStatus, message: "no" } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let alerts: string[] = [];
beforeEach(() => {
  received = [];
  linkState = "open";
  draft = null;
  submitStatus = 200;
  alerts = [];
  localStorage.clear();
  vi.spyOn(window, "alert").mockImplementation((message?: unknown) => void alerts.push(String(message)));
  Element.prototype.scrollIntoView = () => undefined;
  window.scrollTo = () => undefined;
});
afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await i18n.changeLanguage("en");
});

function Complete() {
  return <p>complete page {JSON.stringify(useLocation().state)}</p>;
}

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/auth/teleawv" element={<TeleAwvPage />} />
        <Route path="/auth/teleawv/complete" element={<Complete />} />
        <Route path="/auth/logout" element={<p>logout page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const START = questionnaireContext(hiddenFields(new URL(LINK, "http://x").search), undefined, {});

/** Every required question answered with its first choice ('never' smoked, no diet, alone). */
function completeAnswers(): Answers {
  let answers: Answers = {};
  for (const q of teleAwvSurvey.pages.flatMap((p) => p.questions)) {
    if (!q.required || !isQuestionVisible(q, { ...START, answers: { ...START.answers, ...answers } }))
      continue;
    if (q.type === "checkbox") answers = setSelectedValues(q, answers, [q.noneValue ?? ""]);
    else if (q.fieldName === "social.smokeYesNoQuit") answers = setAnswer(answers, q.fieldName, "never");
    else answers = setAnswer(answers, q.fieldName, q.choices?.[0]?.value ?? "yes");
  }
  return answers;
}

const LAST = teleAwvSurvey.pages.length - 1;

describe("TeleAwvPage", { timeout: 60_000 }, () => {
  test("alerts and goes to logout when the link lacks ptEmail", async () => {
    renderAt("/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa");
    expect(await screen.findByText("logout page")).toBeTruthy();
    expect(alerts).toEqual([TELE_AWV_LINK_ERROR]);
  });

  test("checks the link on opening and shows the first step with the practice, progress and time", async () => {
    renderAt(LINK);
    expect(await screen.findByRole("heading", { level: 1, name: "Daily function" })).toBeTruthy();
    expect(screen.getByText("From Maple Family Practice")).toBeTruthy();
    expect(screen.getByText("Step 1 of 8")).toBeTruthy();
    expect(screen.getByText(/^About \d+ minutes left$/)).toBeTruthy();
    expect(received[0]).toMatchObject({ method: "GET", authorization: `Bearer ${"t".repeat(43)}` });
    const hidden = [...document.querySelectorAll<HTMLInputElement>("input[type=hidden]")].map((i) => [
      i.name,
      i.value,
    ]);
    expect(hidden.map(([name]) => name)).toEqual(["tenant", "patientId", "ptEmail", "ptS", "ptPY", "pt100"]);
  });

  test.each([
    ["used", "This link has already been used", /already sent to Maple Family Practice/],
    ["expired", "This link has expired", /please ask Maple Family Practice for a new one/],
  ] as const)("says plainly when the link was %s", async (state, title, text) => {
    linkState = state;
    renderAt(LINK);
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Submit AWV" })).toBeNull();
  });

  test("resumes the saved step and answers, and submits them without hidden answers", async () => {
    draft = {
      answers: completeAnswers(),
      pageIndex: LAST,
      language: "en",
      savedAt: new Date().toISOString(),
    };
    const user = userEvent.setup();
    renderAt(LINK);
    expect(await screen.findByRole("heading", { level: 1, name: "Medical documents" })).toBeTruthy();
    expect(screen.getByText(/Welcome back/)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Submit AWV" }));
    expect(await screen.findByText(/complete page/)).toBeTruthy();
    const post = received.find((r) => r.method === "POST");
    expect(post?.path).toBe("/api/auth/teleawv");
    expect(post?.body).toMatchObject({ tenant: "demo", ptS: "true" });
    expect((post?.body as { answers: Answers }).answers.ptS).toBeUndefined();
    expect(screen.getByText(/"safetyAlert":false/)).toBeTruthy();
  });

  test("slides a follow-up open as the answer changes and saves the draft on the next step", async () => {
    draft = { answers: {}, pageIndex: 1, language: "es", savedAt: new Date().toISOString() };
    const user = userEvent.setup();
    renderAt(LINK);
    expect(await screen.findByRole("heading", { level: 1, name: "Dolor" })).toBeTruthy();
    const slide = document.querySelector<HTMLElement>('[data-slide="pain.locations"]');
    expect(slide?.classList.contains("is-open")).toBe(false);
    const often = screen.getByText("En los últimos 3 meses, ¿con qué frecuencia ha tenido dolor?", {
      selector: "legend",
    });
    await user.click(within(often.closest("fieldset") as HTMLElement).getByLabelText("Todos los días"));
    expect(slide?.classList.contains("is-open")).toBe(true);
    await user.click(screen.getByRole("button", { name: "Siguiente" }));
    expect(screen.getByText(/Usted indicó que tuvo dolor/)).toBeTruthy();
  });

  test("alerts 'An error has occurred.' and stays when the server refuses the submission", async () => {
    draft = {
      answers: completeAnswers(),
      pageIndex: LAST,
      language: "en",
      savedAt: new Date().toISOString(),
    };
    submitStatus = 400;
    const user = userEvent.setup();
    renderAt(LINK);
    await user.click(await screen.findByRole("button", { name: "Submit AWV" }));
    await vi.waitFor(() => expect(alerts).toEqual(["An error has occurred."]), { timeout: 10_000 });
    expect(screen.getByRole("button", { name: "Submit AWV" })).toBeTruthy();
  });
});
