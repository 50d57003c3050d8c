import { Navigate, Route, Routes } from "react-router-dom";
import { TabletPicker } from "./tablet-picker";
import { TabletSurveyPage } from "./tablet-survey-page";

/** The tablet area under /tablet: the staff picker and the patient's survey runner (SPEC 2). */
export default function TabletRoutes() {
  return (
    <Routes>
      <Route index element={<TabletPicker />} />
      <Route path="patient-survey/:surveyId/pg/:pageNumber" element={<TabletSurveyPage />} />
      <Route path="*" element={<Navigate to="/tablet" replace />} />
    </Routes>
  );
}
