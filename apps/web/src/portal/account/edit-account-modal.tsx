import { useId, useRef, useState } from "react";
import { PASSWORD_MIN_LENGTH } from "@core-care/schema";
import { api } from "../../api/client";
import { FieldMessage, formFailure, invalidProps, NO_FAILURE, type FormFailure } from "../../ui/field-errors";
import { ConfirmPasswordField, PasswordField, passwordsDiffer } from "../../ui/new-password-fields";
import { PasswordRules } from "../../ui/password-rules";

/** The fields the server may name in its answer, as this form calls them. */
const FIELDS = ["firstName", "lastName", "currentPassword", "newPassword", "confirmPassword"];
import { setMe } from "../../api/session";
import type { Me, User } from "../../api/types";
import { formText } from "../../ui/form";
import { Modal } from "../../ui/modal";

/**
 * The edit-account modal (SPEC 2, 5): first and last name, read-only e-mail, current, new and confirm
 * password; Cancel and 'Save & Continue'. It submits only when the form is valid; the answer replaces
 * the current user and the password fields are cleared.
 */
export function EditAccountModal({
  me,
  onClose,
  onSaved,
}: {
  me: Me;
  onClose: () => void;
  onSaved: () => void;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);

  async function save() {
    const element = form.current;
    if (!element || !element.reportValidity()) return;
    const data = new FormData(element);
    const differ = passwordsDiffer(data, "newPassword");
    if (differ !== null) {
      setFailure(differ);
      return;
    }
    setFailure(NO_FAILURE);
    setBusy(true);
    try {
      const answer = await api.put<Me | User>(
        "/api/users/me",
        {
          firstName: formText(data, "firstName").trim(),
          lastName: formText(data, "lastName").trim(),
          currentPassword: formText(data, "currentPassword"),
          newPassword: formText(data, "newPassword"),
          confirmPassword: formText(data, "confirmPassword"),
        },
        { handleErrors: true },
      );
      setMe("user" in answer ? answer : { ...me, user: answer });
      for (const name of ["currentPassword", "newPassword", "confirmPassword"]) {
        const input = element.elements.namedItem(name);
        if (input instanceof HTMLInputElement) input.value = "";
      }
      onSaved();
    } catch (cause) {
      setFailure(formFailure(cause, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title="Edit account"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={`${id}-form`} className="button primary" disabled={busy}>
            Save &amp; Continue
          </button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        ref={form}
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="form-grid">
          <div className="field">
            <label htmlFor={`${id}-first`}>First name</label>
            <input
              id={`${id}-first`}
              name="firstName"
              defaultValue={me.user.firstName}
              required
              autoComplete="given-name"
              {...invalidProps(`${id}-first`, failure.fields.firstName)}
            />
            <FieldMessage id={`${id}-first`} message={failure.fields.firstName} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-last`}>Last name</label>
            <input
              id={`${id}-last`}
              name="lastName"
              defaultValue={me.user.lastName}
              required
              autoComplete="family-name"
              {...invalidProps(`${id}-last`, failure.fields.lastName)}
            />
            <FieldMessage id={`${id}-last`} message={failure.fields.lastName} />
          </div>
          <div className="field span-2">
            <label htmlFor={`${id}-email`}>E-mail</label>
            <input id={`${id}-email`} name="email" type="email" value={me.user.email} readOnly />
          </div>
          <PasswordField
            id={`${id}-current`}
            name="currentPassword"
            label="Current password"
            autoComplete="current-password"
            message={failure.fields.currentPassword}
            className="field span-2"
          />
          <PasswordField
            id={`${id}-new`}
            name="newPassword"
            label="New password"
            autoComplete="new-password"
            message={failure.fields.newPassword}
            required={false}
            minLength={PASSWORD_MIN_LENGTH}
            describedBy={`${id}-keep ${id}-rule`}
          />
          <ConfirmPasswordField id={id} failure={failure} required={false} />
          <div className="span-2">
            <p id={`${id}-keep`} className="hint">
              Leave the new password blank to keep the current one.
            </p>
            <PasswordRules id={`${id}-rule`} />
          </div>
        </div>
        <p className="form-error" role="alert">
          {failure.form}
        </p>
      </form>
    </Modal>
  );
}
