import { useLocation } from "react-router-dom";
import { AuthLayout } from "./auth-layout";
import { LoginForm } from "./login-form";
import { redirectTarget } from "./redirect";

/** /auth/login and every other /auth path (SPEC 2). */
export default function LoginPage() {
  const { search } = useLocation();
  const message = new URLSearchParams(search).get("message");
  return (
    <AuthLayout title="Sign in">
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      <LoginForm onSignedIn={() => window.location.assign(redirectTarget(search))} />
    </AuthLayout>
  );
}
