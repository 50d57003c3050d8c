import { useId, useRef } from "react";
import { canManageUser, grantableRoles, keepHiddenRoles } from "@core-care/schema";
import { PasswordRules } from "../../ui/password-rules";
import { useMe } from "../../api/session";
import { Role, type User } from "../../api/types";
import { roleLabels, ROLE_CHOICES } from "../roles";
import { ResourcePage } from "./resource-page";

/** A created user, as POST /api/users answers it with 201. */
function isUser(answer: unknown): answer is User {
  return typeof answer === "object" && answer !== null && "email" in answer && "roles" in answer;
}

/** The answer of POST /api/users for a person who already has an account in another practice. */
function invitedEmail(answer: unknown): string | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const { invited, email } = answer as { invited?: unknown; email?: unknown };
  return invited === true && typeof email === "string" ? email : undefined;
}

/**
 * Users of the tenant (admins). Nobody gives or takes a role they do not hold: the form offers only the
 * editor's roles and keeps the ones it does not show, and rows of users holding a role the editor lacks
 * offer neither Edit nor Remove (the server refuses them too).
 */
export default function UsersPage() {
  const me = useMe();
  const passwordRulesId = useId();
  // Whether the last new user was given a password on the form (else they were e-mailed a link).
  const sentPassword = useRef(false);
  const editorRoles = me?.user.roles ?? 0;
  const grantable = grantableRoles(editorRoles);
  const shown = ROLE_CHOICES.filter(([flag]) => (grantable & flag) === flag);
  const shownFlags = shown.reduce<number>((sum, [flag]) => sum | flag, 0);
  const choices = shown.map(([flag, label]) => [String(flag), label] as const);
  return (
    <ResourcePage<User>
      title="Users"
      singular="User"
      path="/api/users"
      allowed={(may) => may.manageUsers}
      canEdit={(u) => canManageUser(editorRoles, u.roles)}
      canRemove={(u) => u.id !== me?.user.id && canManageUser(editorRoles, u.roles)}
      savedNotice={(answer, editing) => {
        const email = invitedEmail(answer);
        if (email !== undefined) return `An invitation was e-mailed to ${email}; they join when they accept.`;
        if (editing === null && !sentPassword.current && isUser(answer)) {
          return `User saved. ${answer.email} was e-mailed a link to choose a password.`;
        }
        return undefined;
      }}
      rowLabel={(u) => `${u.firstName} ${u.lastName}`}
      columns={[
        { key: "lastName", header: "Last name" },
        { key: "firstName", header: "First name" },
        { key: "email", header: "E-mail" },
        { key: "roles", header: "Roles", render: (u) => roleLabels(u.roles) },
      ]}
      fields={[
        { name: "firstName", label: "First name", required: true },
        { name: "lastName", label: "Last name", required: true },
        { name: "email", label: "E-mail", type: "email", required: true, fixedOnEdit: true },
        { name: "roles", label: "Roles", type: "checkboxes", options: choices },
        {
          name: "password",
          label: "Password",
          type: "password",
          createOnly: true,
          hint: (
            <>
              <p>
                Optional. Leave it blank and the user is e-mailed a link, valid 7 days and usable once, to
                choose their own password.
              </p>
              <PasswordRules id={passwordRulesId} confirm={false} />
            </>
          ),
        },
      ]}
      toForm={(u) => ({
        ...u,
        roles: ROLE_CHOICES.filter(([flag]) => (u.roles & flag) === flag).map(([flag]) => String(flag)),
      })}
      fromForm={(values, editing) => {
        const chosen = (values.roles as string[]).reduce((sum, flag) => sum | Number(flag), 0);
        // Roles the form does not show stay as they were: saving never takes a role the editor lacks.
        const roles = (editing ? keepHiddenRoles(editing.roles, chosen, shownFlags) : chosen) || Role.user;
        const body: Record<string, unknown> = {
          firstName: values.firstName,
          lastName: values.lastName,
          roles,
        };
        if (!editing) {
          body.email = values.email;
          sentPassword.current = Boolean(values.password);
          if (values.password) body.password = values.password;
        }
        return body;
      }}
    />
  );
}
