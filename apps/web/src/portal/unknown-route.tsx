import { useEffect } from "react";
import { Link, useLocation } from "react-router-dom";
import { FIRST_DOCUMENT_PATH } from "../first-path";

/**
 * SPEC 2: an unknown path triggers a full page load, so the server can answer it. When the server
 * already answered this very path with the app, a reload would loop, so the page says it is not found.
 */
export function UnknownRoute() {
  const { pathname, search, hash } = useLocation();
  const loadedByServer = pathname === FIRST_DOCUMENT_PATH;
  useEffect(() => {
    if (!loadedByServer) window.location.assign(`${pathname}${search}${hash}`);
  }, [loadedByServer, pathname, search, hash]);
  if (!loadedByServer) return null;
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </section>
  );
}
