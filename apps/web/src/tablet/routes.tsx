import { useEffect } from "react";
import { Redirect, Route, Switch, useLocation, useSearch } from "wouter";
import { configureClient, logoutPath } from "../api/client";
import { NotFoundPage, useServedHere } from "../not-found-page";
import { ErrorBanner, ProcessingIndicator } from "../ui/global-status";
import { pageRendered } from "./handover";
import { tabletExit } from "./leave";
import { TabletPicker } from "./tablet-picker";
import { TabletSurveyPage } from "./tablet-survey-page";

// Set before any page of the tablet calls the API: a 401 leaves through the tablet's exit, which
// lets the survey page send the last answers and wipe the patient first.
configureClient({ onUnauthorized: (returnTo) => void tabletExit.leave(logoutPath(returnTo)) });

/** The query and fragment of the page's address, as they follow a path. */
function useRest(): string {
  const search = useSearch();
  // No fragment on the server, which draws the first page of a survey (./tablet-server.tsx).
  const hash = typeof window === "undefined" ? "" : window.location.hash;
  return `${search === "" ? "" : `?${search}`}${hash}`;
}

/**
 * A path outside /tablet: the staff app's page answers it, so it is loaded in full (the server never
 * answers such a path with this page; if it did, the page would say it has nothing there).
 */
function ElsewhereInFull({ pathname, rest }: { pathname: string; rest: string }) {
  if (!useServedHere(pathname, rest)) return null;
  return <NotFoundPage home={<a href="/">Go to the start page</a>} />;
}

/**
 * The routes of the tablet's own page (SPEC 2): the staff picker and the patient's survey runner
 * under /tablet, with the 'Processing...' indicator and the error banner. Every other path belongs
 * to the staff app's page. The page routes with wouter, not the staff app's router: it is a tenth of
 * the size, and an old tablet's first question waits for every byte of script the page loads.
 */
export default function TabletRoutes() {
  const [pathname] = useLocation();
  const rest = useRest();
  // SPEC 2: a path ending in "/" is redirected to the same path without the slash.
  const trailingSlash = pathname.length > 1 && pathname.endsWith("/");
  useEffect(pageRendered, []);
  return (
    <>
      <ProcessingIndicator />
      <ErrorBanner />
      {trailingSlash ? (
        <Redirect to={`${pathname.replace(/\/+$/, "") || "/"}${rest}`} replace />
      ) : (
        <Switch>
          <Route path="/tablet">
            <TabletPicker />
          </Route>
          <Route path="/tablet/patient-survey/:surveyId/pg/:pageNumber">
            <TabletSurveyPage />
          </Route>
          <Route path="/tablet/*">
            <Redirect to="/tablet" replace />
          </Route>
          <Route>
            <ElsewhereInFull pathname={pathname} rest={rest} />
          </Route>
        </Switch>
      )}
    </>
  );
}
