import { lazy, Suspense, useEffect } from "react";
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from "react-router-dom";
import { configureClient } from "./api/client";
import { ErrorBanner, ProcessingIndicator } from "./ui/global-status";

const AuthRoutes = lazy(() => import("./auth/routes"));
const TabletRoutes = lazy(() => import("./tablet/routes"));
const PortalRoutes = lazy(() => import("./portal/routes"));

/** SPEC 2: a path ending in "/" is redirected to the same path without the slash. */
function TrailingSlash({ children }: { children: React.ReactNode }) {
  const { pathname, search, hash } = useLocation();
  if (pathname.length > 1 && pathname.endsWith("/")) {
    return <Navigate to={`${pathname.replace(/\/+$/, "") || "/"}${search}${hash}`} replace />;
  }
  return <>{children}</>;
}

/** On a 401 the client records the location and goes to logout (SPEC 4) through the router. */
function ClientNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    configureClient({
      onUnauthorized: (returnTo) => {
        void navigate(`/auth/logout?redirect=${encodeURIComponent(returnTo)}`);
      },
    });
  }, [navigate]);
  return null;
}

function Loading() {
  return <div className="page-loading" aria-busy="true" />;
}

/** Every route of the app: /auth screens, the tablet and the staff portal (each area loaded on demand). */
export function AppRoutes() {
  return (
    <TrailingSlash>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/auth/*" element={<AuthRoutes />} />
          <Route path="/tablet/*" element={<TabletRoutes />} />
          <Route path="/*" element={<PortalRoutes />} />
        </Routes>
      </Suspense>
    </TrailingSlash>
  );
}

/** The web app with its router, the 'Processing...' indicator and the error banner. */
export function App() {
  return (
    <BrowserRouter>
      <ClientNavigation />
      <ProcessingIndicator />
      <ErrorBanner />
      <AppRoutes />
    </BrowserRouter>
  );
}
