import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { configureClient, logoutPath } from "../api/client";
import { PageNotFound, TrailingSlash } from "../routing";
import { ErrorBanner, ProcessingIndicator } from "../ui/global-status";
import { tabletExit } from "./leave";
import { TabletPicker } from "./tablet-picker";
import { TabletSurveyPage } from "./tablet-survey-page";

// Set before any page of the tablet calls the API: a 401 leaves through the tablet's exit, which
// lets the survey page send the last answers and wipe the patient first.
configureClient({ onUnauthorized: (returnTo) => void tabletExit.leave(logoutPath(returnTo)) });

/**
 * The routes of the tablet's own page (SPEC 2): the staff picker and the patient's survey runner
 * under /tablet, with the 'Processing...' indicator and the error banner. Every other path belongs
 * to the staff app's page.
 */
export default function TabletRoutes() {
  return (
    <BrowserRouter>
      <ProcessingIndicator />
      <ErrorBanner />
      <TrailingSlash>
        <Routes>
          <Route path="/tablet" element={<TabletPicker />} />
          <Route path="/tablet/patient-survey/:surveyId/pg/:pageNumber" element={<TabletSurveyPage />} />
          <Route path="/tablet/*" element={<Navigate to="/tablet" replace />} />
          <Route path="*" element={<PageNotFound />} />
        </Routes>
      </TrailingSlash>
    </BrowserRouter>
  );
}
