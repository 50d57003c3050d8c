import { useEffect, type ReactNode } from "react";
import { Link, Navigate, useLocation } from "react-router-dom";
import { FIRST_DOCUMENT_PATH } from "./first-path";

/** SPEC 2: a path ending in "/" is redirected to the same path without the slash. */
export function TrailingSlash({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return <Navigate to={`${pathname.replace(/\/+$/, "") || "/"}${search}${hash}`} replace />;
  }
  return <>{children}</>;
}

/**
 * SPEC 2: a path this app does not route is loaded in full, so the server answers it (with the other
 * HTML entry, or its own not-found). Answers false while that load is under way, true when the server
 * has already answered this very path with this app, where loading it again would loop.
 */
export function useServedHere(): boolean {
  const { pathname, search, hash } = useLocation();
  const servedHere = pathname === FIRST_DOCUMENT_PATH;
  useEffect(() => {
    if (!servedHere) window.location.replace(`${pathname}${search}${hash}`);
  }, [servedHere, pathname, search, hash]);
  return servedHere;
}

/**
 * A path this page does not route: loaded in full, and "not found" once the server has answered it
 * with this page. Standalone it is the page's main landmark; `inLayout`, a section of the staff
 * portal's layout, which holds the main landmark.
 */
export function PageNotFound({ inLayout = false }: { inLayout?: boolean }) {
  const Landmark = inLayout ? "section" : "main";
  if (!useServedHere()) return null;
  return (
    <Landmark className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </Landmark>
  );
}
