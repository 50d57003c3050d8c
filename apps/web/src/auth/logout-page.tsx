import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { api } from "../api/client";
import { setMe } from "../api/session";
import { ELEVATED_KEY } from "./login-form";

/** /auth/logout: ends the session, then goes to /auth/login keeping the query string (SPEC 2). */
export default function LogoutPage() {
  const { search } = useLocation();
  useEffect(() => {
    let cancelled = false;
    api
      .del("/api/auth/sessions", { handleErrors: true })
      .catch((cause: unknown) => {
        if (!cancelled) window.alert(cause instanceof Error ? cause.message : String(cause));
      })
      .finally(() => {
        if (cancelled) return;
        setMe(null);
        try {
          localStorage.removeItem(ELEVATED_KEY);
        } catch {
          // Storage can be disabled.
        }
        window.location.replace(`/auth/login${search}`);
      });
    return () => {
      cancelled = true;
    };
  }, [search]);
  return (
    <main className="auth-page" aria-busy="true">
      <p className="visually-hidden" role="status">
        Signing out
      </p>
    </main>
  );
}
