import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { sortSurveys } from "@core-care/survey-engine";
import { configureClient } from "../api/client";
import { SurveySelect } from "./dropdowns";

// GET /api/surveys as the server lists them: not in the dropdown's order.
const LISTED = [
  "Falls Follow-up",
  "Welcome to Medicare Exam",
  "Depression Screen",
  "Core Care Wellness Exam",
];
const idOf = (index: number) => `64a1c0de00000000000000${String(index + 10)}`;

// A real HTTP peer on 127.0.0.1 stands in for the API.
let server: Server;
let requested: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(`${request.method ?? ""} ${request.url ?? ""}`);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        items: LISTED.map((title, index) => ({
          id: idOf(index),
          title,
          version: 1,
          canSubscribeTo: false,
          tenantId: "demo",
          readOnly: false,
        })),
        total: LISTED.length,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  configureClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  cleanup();
  requested = [];
});

describe("SurveySelect", () => {
  test("with multiple, lets the user pick several surveys, listed in the sortSurveys order", async () => {
    const user = userEvent.setup();
    const changes: string[][] = [];
    render(
      <form aria-label="Assign">
        <SurveySelect name="surveyIds" multiple onChange={(_first, values) => changes.push(values)} />
      </form>,
    );
    const select = screen.getByRole<HTMLSelectElement>("listbox", { name: "Survey" });
    expect(select.multiple).toBe(true);

    await waitFor(() => expect(screen.getAllByRole("option")).toHaveLength(4));
    expect(requested).toEqual(["GET /api/surveys"]);
    // No placeholder choice in a multi-select; Core Care Wellness Exam first, Welcome to Medicare Exam next,
    // the others in the order the server gave.
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual([
      "Core Care Wellness Exam",
      "Welcome to Medicare Exam",
      "Falls Follow-up",
      "Depression Screen",
    ]);
    expect(select.selectedOptions).toHaveLength(0);

    await user.selectOptions(select, ["Depression Screen", "Core Care Wellness Exam"]);

    expect(Array.from(select.selectedOptions, (o) => o.textContent)).toEqual([
      "Core Care Wellness Exam",
      "Depression Screen",
    ]);
    expect(new FormData(screen.getByRole<HTMLFormElement>("form")).getAll("surveyIds")).toEqual([
      idOf(3),
      idOf(2),
    ]);
    expect(changes.at(-1)).toEqual([idOf(3), idOf(2)]);
  });

  test("with multiple, starts from the given choices", () => {
    const surveys = sortSurveys(
      LISTED.map((title, index) => ({
        id: idOf(index),
        title,
        version: 1,
        canSubscribeTo: false,
        tenantId: "demo",
        readOnly: false,
      })),
    );
    render(<SurveySelect name="surveyIds" multiple surveys={surveys} defaultValue={[idOf(0), idOf(1)]} />);
    const select = screen.getByRole<HTMLSelectElement>("listbox", { name: "Survey" });
    expect(Array.from(select.selectedOptions, (o) => o.textContent)).toEqual([
      "Welcome to Medicare Exam",
      "Falls Follow-up",
    ]);
    expect(requested).toEqual([]);
  });
});
