import { useMe } from "../../api/session";
import { hasRole, Role, type User } from "../../api/types";
import { roleLabels, ROLE_CHOICES } from "../roles";
import { ResourcePage } from "./resource-page";

const isAdmin = (roles: number) => hasRole(roles, "admin") || hasRole(roles, "sysAdmin");

/** Users of the tenant (admins). */
export default function UsersPage() {
  const me = useMe();
  const sysAdmin = me ? hasRole(me.user.roles, "sysAdmin") : false;
  const choices = ROLE_CHOICES.filter(([flag]) => sysAdmin || flag !== Role.sysAdmin).map(
    ([flag, label]) => [String(flag), label] as const,
  );
  return (
    <ResourcePage<User>
      title="Users"
      singular="User"
      path="/api/users"
      allowed={isAdmin}
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
          hint: "Optional, at least 15 characters. Without one, the user sets it through 'Forgot password'.",
        },
      ]}
      toForm={(u) => ({
        ...u,
        roles: ROLE_CHOICES.filter(([flag]) => (u.roles & flag) === flag).map(([flag]) => String(flag)),
      })}
      fromForm={(values, editing) => {
        const roles = (values.roles as string[]).reduce((sum, flag) => sum | Number(flag), 0) || Role.user;
        const body: Record<string, unknown> = {
          firstName: values.firstName,
          lastName: values.lastName,
          roles,
        };
        if (!editing) {
          body.email = values.email;
          if (values.password) body.password = values.password;
        }
        return body;
      }}
    />
  );
}
