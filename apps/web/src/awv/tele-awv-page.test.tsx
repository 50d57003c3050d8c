import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import {
  cleanup,
  fireEvent,
  getDefaultNormalizer,
  render,
  screen,
  waitFor,
  within,
} from "@testing-library/react";
import userEvent, { type UserEvent } from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { isQuestionVisible, MESSAGES, teleAwvSurvey } from "@core-care/survey-engine";
import { configureClient } from "../api/client";
import TeleAwvPage from "./tele-awv-page";
import { hiddenFields, questionnaireContext, TELE_AWV_ERROR, TELE_AWV_LINK_ERROR } from "./tele-awv-form";

const LINK =
  "/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa&ptEmail=pat%40example.org&ptS=true&ptPY=true&pt100=true#token=" +
  "t".repeat(43);

interface Received {
  path: string;
  body: unknown;
}

// A real HTTP peer on 127.0.0.1 stands in for the API, answering with `status`.
let server: Server;
let received: Received[] = [];
let status = 200;
beforeAll(async () => {
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => {
      received.push({ path: request.url ?? "", body: JSON.parse(text || "null") as unknown });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(
        status === 200 ? '{"id":"64a1c0de00000000000000bb"}' : '{"responseStatus":{"message":"no"}}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let alerts: string[] = [];
let scrolledTo: Element[] = [];
beforeEach(() => {
  received = [];
  status = 200;
  alerts = [];
  scrolledTo = [];
  vi.spyOn(window, "alert").mockImplementation((message?: unknown) => void alerts.push(String(message)));
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolledTo.push(this);
  };
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function renderAt(url: string) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/auth/teleawv" element={<TeleAwvPage />} />
        <Route path="/auth/teleawv/complete" element={<p>complete page</p>} />
        <Route path="/auth/logout" element={<p>logout page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const question = (title: string) => {
  const legend = screen.getByText(title, { selector: "legend" });
  return legend.closest("fieldset") as HTMLElement;
};
const slideOf = (title: string) => question(title).closest(".awv-slide") as HTMLElement;

async function choose(user: UserEvent, title: string, label: string) {
  await user.click(within(question(title)).getByLabelText(label));
}

const START = questionnaireContext(hiddenFields(new URL(LINK, "http://x").search), undefined, {});

/** Answers every required question with the quickest choices (no follow-ups opened). */
function answerRequired() {
  for (const q of teleAwvSurvey.pages.flatMap((p) => p.questions)) {
    if (!q.required || q.type === "checkbox" || !isQuestionVisible(q, START)) continue;
    const first = q.choices?.[0]?.label ?? "Yes";
    const label = q.fieldName === "social.smokeYesNoQuit" ? "I have never smoked" : first;
    const legend = screen.getByText(q.title, { selector: "legend" });
    fireEvent.click(within(legend.closest("fieldset") as HTMLElement).getByLabelText(label));
  }
  fireEvent.click(screen.getByLabelText("I don't follow a diet"));
  fireEvent.click(screen.getByLabelText("I live alone"));
}

// The whole questionnaire re-renders on every answer; give the slower shared CI machines room.
describe("TeleAwvPage", { timeout: 60_000 }, () => {
  test("alerts and goes to logout when the link lacks ptEmail", async () => {
    renderAt("/auth/teleawv?tenant=demo&patientId=64a1c0de00000000000000aa");
    expect(await screen.findByText("logout page")).toBeTruthy();
    expect(alerts).toEqual([TELE_AWV_LINK_ERROR]);
  });

  test("shows the sections in the spec's order with the logo and the 'Submit AWV' button", () => {
    renderAt(LINK);
    const headings = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(headings).toEqual([
      "Daily function",
      "Pain",
      "Hearing",
      "Habits and social history",
      "Depression screen",
      "Fall risk",
      "Falls and balance",
      "Medical documents",
    ]);
    expect(screen.getByText("Core Care")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Submit AWV" })).toBeTruthy();
    const hidden = [...document.querySelectorAll<HTMLInputElement>('input[type="hidden"]')];
    expect(Object.fromEntries(hidden.map((i) => [i.name, i.value]))).toEqual({
      tenant: "demo",
      patientId: "64a1c0de00000000000000aa",
      ptEmail: "pat@example.org",
      ptS: "true",
      ptPY: "true",
      pt100: "true",
    });
  });

  test("opens and closes the conditional sections as answers change", async () => {
    const user = userEvent.setup();
    renderAt(LINK);
    const locations = slideOf("Where do you hurt? Check all that apply.");
    expect(locations.classList.contains("is-open")).toBe(false);
    expect(locations.hasAttribute("inert")).toBe(true);
    await choose(user, "In the last 3 months, how often have you had pain?", "Most days");
    expect(locations.classList.contains("is-open")).toBe(true);
    await choose(user, "In the last 3 months, how often have you had pain?", "Not at all");
    expect(locations.classList.contains("is-open")).toBe(false);

    const packYears = slideOf(
      teleAwvSurvey.pages[3]!.questions.find((q) => q.fieldName === "social.packYears")!.title,
    );
    await choose(user, "Do you smoke cigarettes, cigars or a pipe?", "Yes, I smoke now");
    expect(packYears.classList.contains("is-open")).toBe(true);
    await choose(user, "Do you smoke cigarettes, cigars or a pipe?", "I have never smoked");
    expect(packYears.classList.contains("is-open")).toBe(false);

    const furtherPhq = slideOf("Feeling tired or having little energy");
    await choose(user, "Feeling down, depressed, or hopeless", "Several days");
    expect(furtherPhq.classList.contains("is-open")).toBe(true);
  });

  test("shows each validation message, scrolls to the first, then submits without hidden answers", async () => {
    const user = userEvent.setup();
    renderAt(LINK);
    await user.click(screen.getByRole("button", { name: "Submit AWV" }));
    expect(screen.getAllByText(MESSAGES.required).length).toBeGreaterThan(10);
    expect(screen.getByText(MESSAGES.dietRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.householdRequired)).toBeTruthy();
    expect(scrolledTo[0]?.getAttribute("data-field")).toBe("functional.eating");
    expect(received).toEqual([]);

    answerRequired();
    await choose(user, "In the last 3 months, how often have you had pain?", "Some days");
    await user.click(screen.getByRole("button", { name: "Submit AWV" }));
    expect(
      screen.getByText(MESSAGES.painLocationRequired, {
        normalizer: getDefaultNormalizer({ collapseWhitespace: false }),
      }),
    ).toBeTruthy();
    expect(received).toEqual([]);

    await user.click(screen.getByLabelText("Knees"));
    await choose(user, "In the last 3 months, how often have you had pain?", "Not at all");
    await user.click(screen.getByRole("button", { name: "Submit AWV" }));
    expect(await screen.findByText("complete page")).toBeTruthy();
    expect(received).toHaveLength(1);
    const [sent] = received;
    expect(sent?.path).toBe("/api/auth/teleawv");
    const body = sent?.body as Record<string, unknown> & { answers: Record<string, Record<string, unknown>> };
    expect(body).toMatchObject({
      tenant: "demo",
      patientId: "64a1c0de00000000000000aa",
      ptEmail: "pat@example.org",
      ptS: "true",
      ptPY: "true",
      pt100: "true",
      token: "t".repeat(43),
    });
    expect(body.answers.pain).toEqual({ hadPain: "0", activities: "0" });
    expect(body.answers.patientId).toBeUndefined();
  });

  test("alerts 'An error has occurred.' and stays when the server refuses the submission", async () => {
    const user = userEvent.setup();
    status = 403;
    renderAt(LINK);
    answerRequired();
    await user.click(screen.getByRole("button", { name: "Submit AWV" }));
    await waitFor(() => expect(alerts).toEqual([TELE_AWV_ERROR]));
    expect(screen.queryByText("complete page")).toBeNull();
    expect(received).toHaveLength(1);
  });
});
