import { afterEach, describe, expect, test } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { ConfirmModal, RemoveRecordModal, type ConfirmChoice } from "./confirm-modal";
import { closeAllModals, Modal } from "./modal";

afterEach(cleanup);

function Harness() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal title="Details" onClose={() => setOpen(false)} footer={<button type="button">Done</button>}>
          <input aria-label="Note" />
        </Modal>
      )}
    </>
  );
}

describe("Modal", () => {
  test("focuses its first field, returns focus on close, and closes on the close button, Escape, a backdrop click and the close event", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(document.activeElement).toBe(screen.getByLabelText("Note"));
    await user.click(screen.getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Open" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Open" }));

    await user.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.mouseDown(screen.getByTestId("modal-backdrop"));
    expect(screen.queryByRole("dialog")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Open" }));
    fireEvent.mouseDown(screen.getByLabelText("Note"));
    expect(screen.getByRole("dialog", { name: "Details" })).toBeTruthy();
    act(() => closeAllModals());
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("keeps Tab inside the dialog", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole("dialog").contains(document.activeElement)).toBe(true);
  });
});

describe("ConfirmModal", () => {
  test("asks 'Are you sure you want to do this?' with Yes and No by default", async () => {
    const user = userEvent.setup();
    const choices: ConfirmChoice[] = [];
    let closed = 0;
    render(<ConfirmModal onConfirm={(c) => choices.push(c)} onClose={() => closed++} />);
    expect(screen.getByRole("dialog").textContent).toContain("Are you sure you want to do this?");
    await user.click(screen.getByRole("button", { name: "Yes" }));
    await user.click(screen.getByRole("button", { name: "No" }));
    expect(choices).toEqual([{}]);
    expect(closed).toBe(1);
  });

  test("shows the patient's name and Confirm and Cancel when asked", () => {
    render(
      <ConfirmModal
        text="Send this result?"
        patientName="Ann Lee"
        buttons="confirm-cancel"
        onConfirm={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole("dialog").textContent).toContain("Send this result?");
    expect(screen.getByText("Ann Lee")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Confirm" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
  });
});

describe("RemoveRecordModal", () => {
  test("asks 'Are you sure you want to remove this record?'", () => {
    render(
      <RemoveRecordModal
        record="Patient Hobbs, Walter"
        onConfirm={() => undefined}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole("dialog", { name: "Remove record" }).textContent).toContain(
      "Are you sure you want to remove this record?",
    );
  });

  test("names the record it removes, in its description", () => {
    render(
      <RemoveRecordModal
        record="Patient Hobbs, Walter (MRN D-1002)"
        onConfirm={() => undefined}
        onClose={() => undefined}
      />,
    );
    const dialog = screen.getByRole("dialog", { name: "Remove record" });
    const describedBy = (dialog.getAttribute("aria-describedby") ?? "").split(" ");
    const description = describedBy.map((id) => document.getElementById(id)?.textContent).join(" ");
    expect(description).toBe(
      "Are you sure you want to remove this record? Patient Hobbs, Walter (MRN D-1002)",
    );
  });
});
