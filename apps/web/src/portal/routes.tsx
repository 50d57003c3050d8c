import { lazy, Suspense, useEffect, useState } from "react";
import { Navigate, Route, Routes, useNavigate } from "react-router-dom";
import { lacksCurrentTenant, loadConfig, loadMe, useMe } from "../api/session";
import type { ClientConfig } from "../api/types";
import { useSessionTimers } from "../api/use-session-timers";
import { defaultRedirect } from "../device";
import { Shell } from "./shell";
import { PageNotFound } from "../routing";

const TodayPage = lazy(() => import("./today/today-page"));
const AuditPage = lazy(() => import("./admin/audit-page"));
const BatchUploadPage = lazy(() => import("./admin/batch-upload-page"));
const PatientsPage = lazy(() => import("./patients/patients-page"));
const PatientPage = lazy(() => import("./patients/patient-page"));
const ResultsPage = lazy(() => import("./results/results-page"));
const ResultPage = lazy(() => import("./results/result-page"));
const DeliveriesPage = lazy(() => import("./deliveries/deliveries-page"));
const ResultPrintPage = lazy(() => import("./print/result-print-page"));
const PlanPrintPage = lazy(() => import("./print/plan-print-page"));
const PatientPrintPage = lazy(() => import("./print/patient-print-page"));
const ReportsPage = lazy(() => import("./reports/reports-page"));
const ReportViewerPage = lazy(() => import("./reports/report-viewer-page"));
const UsersPage = lazy(() => import("./admin/users-page"));
const TenantsPage = lazy(() => import("./admin/tenants-page"));
const LocationsPage = lazy(() => import("./admin/locations-page"));
const InterfacesPage = lazy(() => import("./admin/interfaces-page"));
const InboundPage = lazy(() => import("./admin/inbound-page"));
const AccountPage = lazy(() => import("./account/account-page"));
const SurveysPage = lazy(() => import("../designer/surveys-page"));
const SurveyDesignerPage = lazy(() => import("../designer/survey-designer-page"));
const ReportDesignerPage = lazy(() => import("../designer/report-designer-page"));

/** Where "/" leads (SPEC 2: the configured default URL); "/" itself would loop, so it means the Today page. */
export function homeUrl(config: ClientConfig): string {
  const url = config.defaultUrl.trim();
  return url === "" || url === "/" ? "/today" : url;
}

function Loading() {
  return <div className="page-loading" aria-busy="true" />;
}

/** The staff portal: signed-in screens under '/' (SPEC 2), with the session's idle timeout and keepalive. */
export default function PortalRoutes() {
  const me = useMe();
  const navigate = useNavigate();
  const [config, setConfig] = useState<ClientConfig | null>(null);

  useEffect(() => {
    let live = true;
    void loadConfig().then((c) => live && setConfig(c));
    loadMe().then(
      (loaded) => {
        if (live && lacksCurrentTenant(loaded)) void navigate("/auth/logout", { replace: true });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [navigate]);

  useSessionTimers(me && config ? config : null);

  if (!me || !config) return <Loading />;
  return (
    <Shell me={me}>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route index element={<Navigate to={defaultRedirect(homeUrl(config))} replace />} />
          <Route path="today" element={<TodayPage />} />
          <Route path="patients" element={<PatientsPage />} />
          <Route path="patients/new" element={<PatientPage />} />
          <Route path="patients/:patientId" element={<PatientPage />} />
          <Route path="patients/:patientId/print" element={<PatientPrintPage />} />
          <Route path="results" element={<ResultsPage />} />
          <Route path="results/:resultId" element={<ResultPage />} />
          <Route path="results/:resultId/print" element={<ResultPrintPage />} />
          <Route path="results/:resultId/plan" element={<PlanPrintPage />} />
          <Route path="reports" element={<ReportsPage />} />
          <Route path="deliveries" element={<DeliveriesPage />} />
          <Route path="reports/:reportId" element={<ReportViewerPage />} />
          <Route path="reports/:reportId/edit" element={<ReportDesignerPage />} />
          <Route path="surveys" element={<SurveysPage />} />
          <Route path="surveys/:surveyId" element={<SurveyDesignerPage />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="tenants" element={<TenantsPage />} />
          <Route path="locations" element={<LocationsPage />} />
          <Route path="interfaces" element={<InterfacesPage />} />
          <Route path="inbound" element={<InboundPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="batch-upload" element={<BatchUploadPage />} />
          <Route path="account" element={<AccountPage />} />
          <Route path="*" element={<PageNotFound inLayout />} />
        </Routes>
      </Suspense>
    </Shell>
  );
}
