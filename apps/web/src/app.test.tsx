import { describe, expect, test } from "vitest";
import { render } from "@testing-library/react";
import { App } from "./app";

describe("App", () => {
  test("renders the product name", () => {
    const { container } = render(<App />);
    expect(container.textContent).toContain("Core Care 555-1234");
  });
});
