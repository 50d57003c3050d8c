import { type ReactNode } from "react";
import { Link, Navigate, useLocation } from "react-router-dom";
import { NotFoundPage, useServedHere } from "./not-found-page";

/** SPEC 2: a path ending in "/" is redirected to the same path without the slash. */
export function TrailingSlash({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return <Navigate to={`${pathname.replace(/\/+$/, "") || "/"}${search}${hash}`} replace />;
  }
  return <>{children}</>;
}

/**
 * A path this page does not route: loaded in full, and "not found" once the server has answered it
 * with this page (see {@link useServedHere}). Standalone it is the page's main landmark; `inLayout`, a
 * section of the staff portal's layout, which holds the main landmark.
 */
export function PageNotFound({ inLayout = false }: { inLayout?: boolean }) {
  const { pathname, search, hash } = useLocation();
  if (!useServedHere(pathname, `${search}${hash}`)) return null;
  return <NotFoundPage inLayout={inLayout} home={<Link to="/">Go to the start page</Link>} />;
}
