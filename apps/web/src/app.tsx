import { lazy, Suspense, useEffect, useState } from "react";
import { createBrowserRouter, Route, RouterProvider, Routes, useNavigate } from "react-router-dom";
import { configureClient, logoutPath } from "./api/client";
import { PageNotFound, TrailingSlash } from "./routing";
import { ErrorBanner, ProcessingIndicator } from "./ui/global-status";

const AuthRoutes = lazy(() => import("./auth/routes"));
const PortalRoutes = lazy(() => import("./portal/routes"));
const InvitationPage = lazy(() => import("./auth/invitation-page"));

/** On a 401 the client records the location and goes to logout (SPEC 4) through the router. */
function ClientNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    configureClient({
      onUnauthorized: (returnTo) => {
        void navigate(logoutPath(returnTo));
      },
    });
  }, [navigate]);
  return null;
}

function Loading() {
  return <div className="page-loading" aria-busy="true" />;
}

/**
 * Every route of the app: /auth screens, the practice invitation page and the staff portal (each area
 * loaded on demand). The tablet is its own HTML entry (tablet.html), so /tablet is a full page load.
 */
export function AppRoutes() {
  return (
    <TrailingSlash>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/auth/*" element={<AuthRoutes />} />
          {/* The link of the e-mail inviting a person with an account to join a practice; signed in or not. */}
          <Route path="/invitation" element={<InvitationPage />} />
          <Route path="/tablet/*" element={<PageNotFound />} />
          <Route path="/*" element={<PortalRoutes />} />
        </Routes>
      </Suspense>
    </TrailingSlash>
  );
}

function Root() {
  return (
    <>
      <ClientNavigation />
      <ProcessingIndicator />
      <ErrorBanner />
      <AppRoutes />
    </>
  );
}

/**
 * The web app with its router, the 'Processing...' indicator and the error banner. A data router, so a
 * screen holding unsaved work (the designers) can hold an in-app navigation and ask first.
 */
export function App() {
  const [router] = useState(() => createBrowserRouter([{ path: "*", element: <Root /> }]));
  return <RouterProvider router={router} />;
}
