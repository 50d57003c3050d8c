import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { configureClient } from "../../api/client";
import { QUERY_PLACEHOLDER, suggestionUrl } from "../../ui/suggestion-source";
import { Typeahead } from "../../ui/typeahead";
import { PATIENT_SUGGESTIONS_URL, patientLabel, patientSuggestions } from "./patient-search";

// A real HTTP peer on 127.0.0.1 stands in for the API, answering GET /api/patients.
let server: Server;
let requested: string[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    requested.push(request.url ?? "");
    const q = new URL(request.url ?? "/", "http://x").searchParams.get("q") ?? "";
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        items: [1, 2].map((n) => ({
          id: `64a1c0de0000000000000${String(100 + n)}`,
          firstName: `Pat ${String(n)}`,
          lastName: q,
          mrn: `MRN-${String(n)}`,
          dob: "1950-01-01",
          sex: "F",
        })),
        total: 2,
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

describe("suggestionUrl", () => {
  test("fills the {query} placeholder with the URL-encoded query", () => {
    expect(QUERY_PLACEHOLDER).toBe("{query}");
    expect(suggestionUrl("/api/patients?q={query}&limit=5", "ann")).toBe("/api/patients?q=ann&limit=5");
    expect(suggestionUrl("/api/patients?q={query}&limit=5", "Lee & Sons/é #1?")).toBe(
      "/api/patients?q=Lee%20%26%20Sons%2F%C3%A9%20%231%3F&limit=5",
    );
  });

  test("fills every placeholder and leaves a template without one as it is", () => {
    expect(suggestionUrl("/api/find/{query}?also={query}", "a b")).toBe("/api/find/a%20b?also=a%20b");
    expect(suggestionUrl("/api/patients", "ann")).toBe("/api/patients");
  });
});

describe("patient typeahead", () => {
  test("fetches suggestions from the URL template with the typed query in place of {query}", async () => {
    expect(PATIENT_SUGGESTIONS_URL).toBe("/api/patients?q={query}&limit=5");
    const user = userEvent.setup();
    render(
      <Typeahead
        label="Search patients"
        source={patientSuggestions}
        itemKey={(p) => p.id}
        itemLabel={patientLabel}
        onSelect={() => {}}
      />,
    );
    // Pasted in one go, so a slow machine cannot split it into several debounced queries.
    await user.click(screen.getByRole("combobox", { name: "Search patients" }));
    await user.paste("O'Neil & Co");

    expect(await screen.findAllByRole("option")).toHaveLength(2);
    // The URL parser also escapes the apostrophe the template helper leaves alone.
    expect(requested).toEqual(["/api/patients?q=O%27Neil%20%26%20Co&limit=5"]);
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toEqual([
      "O'Neil & Co, Pat 1 (MRN-1)",
      "O'Neil & Co, Pat 2 (MRN-2)",
    ]);
  });
});
