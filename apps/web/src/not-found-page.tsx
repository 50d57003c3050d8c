import { useEffect, type ReactNode } from "react";
import { FIRST_DOCUMENT_PATH } from "./first-path";

/**
 * SPEC 2: a path this page does not route is loaded in full, so the server answers it (with the other
 * HTML entry, or its own not-found). Answers false while that load is under way, true when the server
 * has already answered this very path with this page, where loading it again would loop. `pathname` and
 * `rest` (its query and fragment) are the page's location as its router reads it.
 */
export function useServedHere(pathname: string, rest: string): boolean {
  const servedHere = pathname === FIRST_DOCUMENT_PATH;
  useEffect(() => {
    if (!servedHere) window.location.replace(`${pathname}${rest}`);
  }, [servedHere, pathname, rest]);
  return servedHere;
}

/**
 * What a page shows at a path it does not route, once the server has answered that path with it.
 * Standalone it is the page's main landmark; `inLayout`, a section of the staff portal's layout, which
 * holds the main landmark. `home` is the link to the start page, as the page's router makes links.
 */
export function NotFoundPage({ inLayout = false, home }: { inLayout?: boolean; home: ReactNode }) {
  const Landmark = inLayout ? "section" : "main";
  return (
    <Landmark className="page">
      <h1>Page not found</h1>
      <p>There is no page at this address. {home}.</p>
    </Landmark>
  );
}
