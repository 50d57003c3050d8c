import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createSuggestionSource, TYPEAHEAD } from "./suggestion-source";
import { Typeahead } from "./typeahead";

const NAMES = ["Jane", "Janet", "Janice", "Janine", "Janelle", "Janette", "Janae"];

function renderTypeahead(queries: string[]) {
  const source = createSuggestionSource<string>({
    fetch: async (query) => {
      queries.push(query);
      return NAMES.filter((name) => name.toLowerCase().startsWith(query.toLowerCase()));
    },
  });
  render(
    <Typeahead
      label="Find patient"
      source={source}
      itemKey={(n) => n}
      itemLabel={(n) => n}
      onSelect={() => {}}
    />,
  );
  return screen.getByRole("combobox", { name: "Find patient" });
}

describe("Typeahead", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  test("uses the spec's defaults: 5 suggestions, minimum length 1, 300 ms debounce", () => {
    expect(TYPEAHEAD).toMatchObject({ limit: 5, minLength: 1, debounceMs: 300 });
  });

  test("asks only after a 300 ms pause, from one character, and shows at most 5 suggestions", async () => {
    const queries: string[] = [];
    const input = renderTypeahead(queries);
    fireEvent.change(input, { target: { value: "j" } });
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(queries).toEqual([]);
    fireEvent.change(input, { target: { value: "ja" } });
    await act(() => vi.advanceTimersByTimeAsync(299));
    expect(queries).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(queries).toEqual(["ja"]);
    expect(screen.getAllByRole("option")).toHaveLength(5);
  });

  test("asks nothing for a blank query", async () => {
    const queries: string[] = [];
    const input = renderTypeahead(queries);
    fireEvent.change(input, { target: { value: "   " } });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(queries).toEqual([]);
    expect(screen.queryAllByRole("option")).toHaveLength(0);
  });
});
