import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, test } from "vitest";
import type { Me } from "../api/types";
import { grants } from "../test/grants";
import { Shell } from "./shell";

// The header's links follow what the server says the user may do (`Me.may`, from the permission table),
// never the roles: a plain user granted an act sees its screen, an admin refused it does not.

function me(roles: number, may: Me["may"]): Me {
  return {
    user: {
      id: "64a1c0de00000000000000ab",
      email: "a@x.test",
      firstName: "A",
      lastName: "B",
      roles,
      tenant: "demo",
      tenants: ["demo"],
    },
    tenant: { id: "demo", name: "Demo", settings: { teleAwvEmail: false, alternateFalls: false } },
    may,
  };
}

function drawn(who: Me) {
  render(
    <MemoryRouter>
      <Shell me={who}>
        <p>page</p>
      </Shell>
    </MemoryRouter>,
  );
}

afterEach(cleanup);

describe("the portal header", () => {
  test("shows a screen's link when the grant says so, whatever the roles", () => {
    drawn(me(1, grants(["editSurveys", "manageUsers"])));
    expect(screen.getByRole("link", { name: "Surveys" })).toBeTruthy();
    expect(screen.getByRole("button", { name: /Administration/ })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Audit log" })).toBeNull();
  });

  test("hides it when the grant is refused, even to an admin", () => {
    drawn(me(2, grants([])));
    expect(screen.queryByRole("link", { name: "Surveys" })).toBeNull();
    expect(screen.queryByRole("button", { name: /Administration/ })).toBeNull();
    expect(screen.getByRole("link", { name: "Patients" })).toBeTruthy();
  });
});
