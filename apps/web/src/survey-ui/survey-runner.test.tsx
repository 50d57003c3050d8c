import { useState } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MESSAGES, type Answers, type Survey } from "@core-care/survey-engine";
import { i18n } from "../i18n/i18n";
import { DOUBLE_TAP_MS, SurveyRunner } from "./survey-runner";

// jsdom lays nothing out, so it has no scrolling; record where the runner asks to scroll instead.
let scrolledTo: Element[] = [];
beforeEach(() => {
  scrolledTo = [];
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolledTo.push(this);
  };
  window.scrollTo = () => undefined;
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await i18n.changeLanguage("en");
});

const survey: Survey = {
  id: "a".repeat(24),
  title: "Runner test",
  description: "",
  canSubscribeTo: false,
  version: 1,
  sections: [{ id: "s1", title: "About you" }],
  pages: [
    {
      id: "p1",
      title: "Contact",
      section: "s1",
      conditions: [],
      questions: [
        {
          id: "q1",
          type: "text",
          fieldName: "name",
          title: "Your name",
          required: true,
          placeholder: "Jane",
          translations: { es: { title: "Su nombre", placeholder: "Juana" } },
        },
        { id: "q2", type: "phone", fieldName: "phone", title: "Phone number" },
        {
          id: "q3",
          type: "radio",
          fieldName: "smoker",
          title: "Do you smoke?",
          required: true,
          choices: [
            { value: "yes", label: "Yes", translations: { es: { label: "Sí" } } },
            { value: "no", label: "No" },
          ],
        },
        {
          id: "q4",
          type: "number",
          fieldName: "packs",
          title: "Packs per day",
          visibleWhen: [{ fieldName: "smoker", action: "Equals", fieldValue: "yes" }],
          required: true,
        },
      ],
    },
    {
      id: "p2",
      title: "Smoking history",
      conditions: [{ fieldName: "smoker", action: "Equals", fieldValue: "yes" }],
      questions: [{ id: "q5", type: "yesno", fieldName: "quit", title: "Have you tried to quit?" }],
    },
    {
      id: "p3",
      title: "Everything else",
      conditions: [],
      questions: [
        { id: "q6", type: "textarea", fieldName: "notes", title: "Anything else?" },
        { id: "q7", type: "date", fieldName: "visit", title: "Last visit" },
        { id: "q8", type: "email", fieldName: "email", title: "E-mail" },
        {
          id: "q9",
          type: "select",
          fieldName: "state",
          title: "State",
          choices: [
            { value: "TX", label: "Texas" },
            { value: "SC", label: "South Carolina" },
          ],
        },
        {
          id: "q10",
          type: "checkbox",
          fieldName: "diets",
          title: "Diets",
          required: true,
          noneValue: "none",
          choices: [
            { value: "lowfat", label: "Low fat", fieldName: "diets0" },
            { value: "none", label: "I don't follow a diet", fieldName: "diets1" },
          ],
        },
        { id: "q11", type: "scale", fieldName: "pain", title: "Pain today", min: 0, max: 5 },
        {
          id: "q12",
          type: "group",
          fieldName: "address",
          title: "Address",
          fields: [{ id: "q13", type: "text", fieldName: "city", title: "City", required: true }],
        },
        { id: "q14", type: "html", fieldName: "info", title: "Thank you for your answers." },
      ],
    },
  ],
};

interface Move {
  to: number;
  from: number;
}

function Harness({
  initialPage = 0,
  moves,
  submits,
}: {
  initialPage?: number;
  moves: Move[];
  submits: Answers[];
}) {
  const [pageIndex, setPageIndex] = useState(initialPage);
  const [answers, setAnswers] = useState<Answers>({});
  return (
    <SurveyRunner
      survey={survey}
      pageIndex={pageIndex}
      answers={answers}
      onAnswersChange={setAnswers}
      onPageChange={(to, from) => {
        moves.push({ to, from });
        setPageIndex(to);
      }}
      onSubmit={() => submits.push(answers)}
    />
  );
}

function setup(initialPage = 0, user = userEvent.setup()) {
  const moves: Move[] = [];
  const submits: Answers[] = [];
  render(<Harness initialPage={initialPage} moves={moves} submits={submits} />);
  return { moves, submits, user };
}

describe("SurveyRunner", () => {
  test("counts only the pages that will show, and gives the page its level-1 heading and tab title", async () => {
    const { user } = setup();
    expect(screen.getByText("Page 1 of 2")).toBeTruthy();
    expect(document.title).toBe("Contact · Runner test");
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    expect(screen.getByText("Page 1 of 3")).toBeTruthy();
  });

  test("shows an example value beside the box, never in it", () => {
    setup();
    const name = screen.getByLabelText(/Your name/);
    expect(name.getAttribute("placeholder")).toBeNull();
    expect(screen.getByText("For example: Jane")).toBeTruthy();
  });

  test("speaks the patient's language, falling back to the survey's own text", async () => {
    await i18n.changeLanguage("es");
    const { user, moves } = setup();
    expect(screen.getByLabelText(/Su nombre/)).toBeTruthy();
    expect(screen.getByText("Por ejemplo: Juana")).toBeTruthy();
    expect(screen.getByRole("radio", { name: "Sí" })).toBeTruthy();
    expect(screen.getByText("Phone number")).toBeTruthy();
    expect(screen.getByText("Página 1 de 2")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Siguiente" }));
    expect(moves).toEqual([]);
    expect(screen.getAllByText("Esta pregunta es obligatoria.")).toHaveLength(2);
    expect(screen.getByRole("alert").textContent).toBe(
      "2 preguntas de esta página necesitan una respuesta o una corrección.",
    );
  });

  test("shows the page title, its section and the questions whose conditions hold", async () => {
    const { user } = setup();

    expect(screen.getByRole("heading", { level: 1, name: "Contact" })).toBeTruthy();
    expect(screen.getByText("About you")).toBeTruthy();
    expect(screen.queryByLabelText(/Packs per day/)).toBeNull();
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    expect(screen.getByLabelText(/Packs per day/)).toBeTruthy();
  });

  test("puts the required message under each unanswered title and focuses the first one when Next is pressed", async () => {
    const { user, moves } = setup();

    await user.click(screen.getByRole("button", { name: "Next" }));

    const name = screen.getByLabelText(/Your name/);
    expect(document.activeElement).toBe(name);
    expect(scrolledTo).toEqual([name.closest(".sv-question")]);
    expect(name.getAttribute("aria-invalid")).toBe("true");
    const nameError = document.getElementById(name.getAttribute("aria-describedby")?.split(" ")[0] ?? "");
    expect(nameError?.textContent).toBe(MESSAGES.required);
    const smoker = screen.getByRole("radiogroup", { name: /Do you smoke\?/ });
    expect(within(smoker).getByText(MESSAGES.required)).toBeTruthy();
    expect(moves).toEqual([]);
    expect(screen.getByRole("alert").textContent).toContain("2 questions");
  });

  test("clears an error as soon as the question is answered", async () => {
    const { user } = setup();
    await user.click(screen.getByRole("button", { name: "Next" }));

    await user.type(screen.getByLabelText(/Your name/), "Ann");

    expect(screen.getByLabelText(/Your name/).getAttribute("aria-invalid")).toBeNull();
    expect(screen.getAllByText(MESSAGES.required)).toHaveLength(1);
  });

  test("reformats a telephone number when the field loses focus", async () => {
    const { user } = setup();
    const phone = screen.getByLabelText("Phone number");

    // SPEC 5: digits only; anything else typed is not taken.
    await user.type(phone, "(555) 123 abc4567");
    expect((phone as HTMLInputElement).value).toBe("5551234567");
    await user.tab();

    expect((phone as HTMLInputElement).value).toBe("555-123-4567");
  });

  test("skips a page whose conditions fail going forward and back", async () => {
    const { user, moves } = setup();
    await user.type(screen.getByLabelText(/Your name/), "Ann");
    await user.click(screen.getByRole("radio", { name: "No" }));

    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(screen.getByRole("heading", { level: 1, name: "Everything else" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Previous" }));

    expect(moves).toEqual([
      { to: 2, from: 0 },
      { to: 0, from: 2 },
    ]);
  });

  test("visits a page whose conditions hold and keeps the numeric answer a number", async () => {
    const { user, moves } = setup();
    await user.type(screen.getByLabelText(/Your name/), "Ann");
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    await user.type(screen.getByLabelText(/Packs per day/), "1.5");
    expect(screen.getByLabelText<HTMLInputElement>(/Packs per day/).value).toBe("1.5");

    await user.click(screen.getByRole("button", { name: "Next" }));

    expect(moves).toEqual([{ to: 1, from: 0 }]);
    expect(screen.getByRole("heading", { level: 1, name: "Smoking history" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 1, name: "Smoking history" }));
  });

  test("disables Previous on the first page", () => {
    setup();

    expect(screen.getByRole<HTMLButtonElement>("button", { name: "Previous" }).disabled).toBe(true);
  });

  test("renders every input type on the last page and submits only when it is valid", async () => {
    const { user, submits } = setup(2);

    expect(screen.getByLabelText("Anything else?").tagName).toBe("TEXTAREA");
    expect(screen.getByLabelText("Last visit").getAttribute("type")).toBe("date");
    expect(screen.getByLabelText("E-mail").getAttribute("type")).toBe("email");
    expect(screen.getByLabelText("State").tagName).toBe("SELECT");
    expect(within(screen.getByRole("radiogroup", { name: "Pain today" })).getAllByRole("radio")).toHaveLength(
      6,
    );
    expect(within(screen.getByRole("group", { name: "Address" })).getByLabelText(/City/)).toBeTruthy();
    expect(screen.getByText("Thank you for your answers.")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(submits).toEqual([]);
    expect(document.activeElement).toBe(screen.getByRole("checkbox", { name: "Low fat" }));

    await user.click(screen.getByRole("checkbox", { name: "Low fat" }));
    await user.click(screen.getByRole("checkbox", { name: "I don't follow a diet" }));
    expect(screen.getByRole<HTMLInputElement>("checkbox", { name: "Low fat" }).checked).toBe(false);
    await user.click(screen.getByRole("radio", { name: "3" }));
    await user.type(within(screen.getByRole("group", { name: "Address" })).getByLabelText(/City/), "Plano");
    await user.selectOptions(screen.getByLabelText("State"), "TX");
    await user.click(screen.getByRole("button", { name: "Submit" }));

    expect(submits).toEqual([{ diets1: "none", pain: 3, address: { city: "Plano" }, state: "TX" }]);
  });

  test("moves one page when Next is pressed twice before the page is shown again", async () => {
    const { user, moves } = setup();
    await user.type(screen.getByLabelText(/Your name/), "Ann");
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    await user.type(screen.getByLabelText(/Packs per day/), "1");
    const next = screen.getByRole("button", { name: "Next" });

    act(() => {
      next.click();
      next.click();
    });

    expect(moves).toEqual([{ to: 1, from: 0 }]);
    expect(screen.getByRole("heading", { level: 1, name: "Smoking history" })).toBeTruthy();
  });

  test("ignores the second tap of a double tap on the page just shown, and takes Next after the pause", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, moves } = setup(0, userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) }));
    await user.type(screen.getByLabelText(/Your name/), "Ann");
    await user.click(screen.getByRole("radio", { name: "Yes" }));
    await user.type(screen.getByLabelText(/Packs per day/), "1");

    await user.click(screen.getByRole("button", { name: "Next" }));
    await user.click(screen.getByRole("button", { name: "Next" }));

    expect(moves).toEqual([{ to: 1, from: 0 }]);
    expect(screen.getByRole("button", { name: "Next" }).getAttribute("aria-disabled")).toBe("true");
    await user.click(screen.getByRole("button", { name: "Previous" }));
    expect(moves).toEqual([
      { to: 1, from: 0 },
      { to: 0, from: 1 },
    ]);

    act(() => {
      vi.advanceTimersByTime(DOUBLE_TAP_MS);
    });
    expect(screen.getByRole("button", { name: "Next" }).getAttribute("aria-disabled")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Next" }));
    expect(moves).toHaveLength(3);
  });

  test("submits once when Submit is tapped twice", async () => {
    const { user, submits } = setup(2);
    await user.click(screen.getByRole("checkbox", { name: "I don't follow a diet" }));
    await user.type(within(screen.getByRole("group", { name: "Address" })).getByLabelText(/City/), "Plano");

    await user.dblClick(screen.getByRole("button", { name: "Submit" }));

    expect(submits).toHaveLength(1);
  });
});
