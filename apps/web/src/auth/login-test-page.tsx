import { useEffect, useId, useState } from "react";
import { api, formErrorMessage } from "../api/client";
import { loadConfig } from "../api/session";
import type { ClientConfig, Me, User } from "../api/types";
import { AuthLayout } from "./auth-layout";
import { LoginForm } from "./login-form";
import { formText } from "../ui/form";

/** /auth/test: the login test form and the test-only user create/delete form (SPEC 2). */
export default function LoginTestPage() {
  const id = useId();
  const [signedIn, setSignedIn] = useState<Me | null>(null);
  const [environment, setEnvironment] = useState<ClientConfig["environment"] | null>(null);
  const [result, setResult] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    void loadConfig().then((config) => setEnvironment(config.environment));
  }, []);

  async function act(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const data = new FormData(event.currentTarget);
    const email = formText(data, "email").trim();
    setResult("");
    setError("");
    try {
      if (submitter?.value === "delete") {
        await api.del(`/api/users/${encodeURIComponent(email)}`, { handleErrors: true });
        setResult(`Deleted user ${email}.`);
      } else {
        const user = await api.post<User>(
          "/api/users",
          {
            name: formText(data, "name").trim(),
            email,
            roles: formText(data, "roles") || "User",
          },
          { handleErrors: true },
        );
        setResult(`Created user ${user.email}.`);
      }
    } catch (cause) {
      setError(formErrorMessage(cause));
    }
  }

  return (
    <AuthLayout title="Login test">
      {signedIn ? (
        <p className="notice" role="status">
          Signed in as {signedIn.user.email} in {signedIn.tenant.name}.
        </p>
      ) : (
        <LoginForm testForm onSignedIn={setSignedIn} />
      )}
      <section className="auth-section" aria-labelledby={`${id}-users`}>
        <h2 id={`${id}-users`}>Test users</h2>
        {environment === "production" ? (
          <p className="hint">Test users can only be made in development and test.</p>
        ) : (
          <form className="form" onSubmit={(e) => void act(e)}>
            <div className="field">
              <label htmlFor={`${id}-name`}>Name</label>
              <input id={`${id}-name`} name="name" autoComplete="off" />
            </div>
            <div className="field">
              <label htmlFor={`${id}-email`}>E-mail</label>
              <input id={`${id}-email`} name="email" type="email" autoComplete="off" required />
            </div>
            <div className="field">
              <label htmlFor={`${id}-roles`}>Roles</label>
              <input id={`${id}-roles`} name="roles" defaultValue="User" autoComplete="off" />
            </div>
            <p className="form-error" role="alert">
              {error}
            </p>
            {result && (
              <p className="notice" role="status">
                {result}
              </p>
            )}
            <div className="form-actions">
              <button type="submit" className="button primary" value="create">
                Create user
              </button>
              <button type="submit" className="button danger" value="delete" formNoValidate>
                Delete user
              </button>
            </div>
          </form>
        )}
      </section>
    </AuthLayout>
  );
}
