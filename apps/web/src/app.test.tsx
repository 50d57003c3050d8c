import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router-dom";
import { AppRoutes } from "./app";

afterEach(cleanup);

function Where() {
  const { pathname, search } = useLocation();
  return <output data-testid="where">{`${pathname}${search}`}</output>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppRoutes />
      <Where />
    </MemoryRouter>,
  );
}

describe("AppRoutes", () => {
  test("shows the login form on /auth/login with the message parameter", async () => {
    renderAt("/auth/login?message=Hello%20there");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy();
    expect(screen.getByText("Hello there")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Forgot password?" }).getAttribute("href")).toBe(
      "/auth/forgotpassword",
    );
  });

  test("shows the login form on any other /auth path", async () => {
    renderAt("/auth/something-else");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy();
  });

  test("shows the forgot-password form with its exact texts", async () => {
    renderAt("/auth/forgotpassword");
    expect(await screen.findByRole("button", { name: "Reset my password" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Back to login" }).getAttribute("href")).toBe("/auth/login");
  });

  test("prefills the change-password form from email and pwd", async () => {
    renderAt("/auth/changepassword?email=a%40b.test&pwd=token123");
    const current = await screen.findByLabelText<HTMLInputElement>("Current password");
    expect(current.value).toBe("token123");
    expect(document.querySelector<HTMLInputElement>('input[type="hidden"][name="email"]')?.value).toBe(
      "a@b.test",
    );
  });

  test("removes a trailing slash and keeps the query", async () => {
    renderAt("/auth/forgotpassword/?x=1");
    expect(await screen.findByRole("button", { name: "Reset my password" })).toBeTruthy();
    expect(screen.getByTestId("where").textContent).toBe("/auth/forgotpassword?x=1");
  });
});
