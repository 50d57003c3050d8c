import { useCallback, useEffect, useMemo, useState } from "react";
import { Link } from "react-router-dom";
import type { Delivery } from "@core-care/schema";
import { TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { api } from "../../api/client";
import { may, useMe } from "../../api/session";
import type { ListResponse, SurveyResultSummary } from "../../api/types";
import { SafetyAlerts } from "../../awv/safety-alerts";
import { DataTable, type Column } from "../../ui/data-table";
import { listStatus, useLoader, type LoadState } from "../../ui/load-state";
import { StalledQueues } from "../deliveries/stalled-queues";
import { formatDateTime } from "../format";
import { usePageTitle } from "../page-title";
import { deliveryProblems, mapLimited, type DeliveryProblem } from "./deliveries-needing-attention";

/** The most recent submitted results whose deliveries the page checks, and how many at once. */
const DELIVERY_CHECKS = 50;
const DELIVERY_PARALLEL = 4;

const dateLine = new Intl.DateTimeFormat("en-US", { dateStyle: "full" });

function startOfToday(now = new Date()): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate());
}

/** How the patient answered: the Tele-AWV questionnaire comes from an e-mailed link, anything else from a tablet. */
function channel(result: SurveyResultSummary): string {
  return result.surveyId === TELE_AWV_SURVEY_ID ? "Tele-AWV" : "Tablet";
}

const newestFirst = (a: SurveyResultSummary, b: SurveyResultSummary) =>
  b.updatedAt.localeCompare(a.updatedAt);

function resultColumns(timeHeader: string): Column<SurveyResultSummary>[] {
  return [
    {
      key: "patientName",
      header: "Patient",
      render: (r) => <Link to={`/patients/${r.patientId}`}>{r.patientName}</Link>,
    },
    {
      key: "surveyTitle",
      header: "Survey",
      render: (r) => <Link to={`/results/${r.id}`}>{r.surveyTitle}</Link>,
    },
    { key: "channel", header: "Taken on", render: channel },
    { key: "updatedAt", header: timeHeader, render: (r) => formatDateTime(r.updatedAt) },
  ];
}

interface Attention extends DeliveryProblem {
  result: SurveyResultSummary;
}

const ATTENTION_COLUMNS: Column<Attention>[] = [
  { key: "patient", header: "Patient", render: (a) => a.result.patientName },
  {
    key: "survey",
    header: "Survey",
    render: (a) => <Link to={`/results/${a.result.id}`}>{a.result.surveyTitle}</Link>,
  },
  { key: "format", header: "Format", render: (a) => a.delivery.format.toUpperCase() },
  {
    key: "state",
    header: "Status",
    render: (a) => <span className={a.state === "Failed" ? "badge danger" : "badge"}>{a.state}</span>,
  },
  { key: "attempts", header: "Attempts", render: (a) => String(a.delivery.attempts) },
  { key: "lastError", header: "Last error", render: (a) => a.delivery.lastError ?? a.delivery.status },
];

/**
 * Deliveries of recent submitted results that need someone's attention, read from each result's delivery
 * log (GET /api/surveyresults/{id}/deliveries).
 */
function DeliveriesNeedingAttention({
  submitted,
  results,
}: {
  submitted: SurveyResultSummary[] | null;
  /** The load of the results: while it fails, this part says so too. */
  results: LoadState;
}) {
  const [rows, setRows] = useState<Attention[] | null>(null);
  const load = useCallback(async () => {
    if (submitted === null) return;
    const checked = submitted.slice(0, DELIVERY_CHECKS);
    const outcomes = await mapLimited(checked, DELIVERY_PARALLEL, (result) =>
      api.get<Delivery[]>(`/api/surveyresults/${result.id}/deliveries`),
    );
    const found: Attention[] = [];
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === "rejected") throw outcome.reason;
      const result = checked[index] as SurveyResultSummary;
      for (const problem of deliveryProblems(outcome.value)) found.push({ ...problem, result });
    }
    setRows(found);
  }, [submitted]);
  const loading = useLoader(load);
  const loaded = rows !== null && submitted !== null;

  return (
    <div className="card">
      <h2>Deliveries needing attention{loaded ? ` (${rows.length})` : ""}</h2>
      <DataTable
        caption="Deliveries needing attention"
        rows={rows ?? []}
        rowKey={(a) => a.delivery.id}
        rowLabel={(a) => `${a.result.surveyTitle} of ${a.result.patientName}`}
        columns={ATTENTION_COLUMNS}
        empty={listStatus(
          loaded,
          submitted === null && results.failed !== null ? results : loading,
          "The deliveries",
          "Every delivery of the results since yesterday went through or is on its way.",
        )}
      />
    </div>
  );
}

/**
 * "Today" (the staff home): open safety alerts, surveys in progress since yesterday, surveys submitted
 * today and deliveries needing attention (for admins first the queues a failed message has stalled), with the day's two usual starts: finding a patient and handing
 * the tablet over.
 */
export default function TodayPage() {
  usePageTitle("Today");
  const me = useMe();
  const [results, setResults] = useState<SurveyResultSummary[] | null>(null);
  const [today, setToday] = useState(startOfToday);

  // A page left open overnight moves on to the new day.
  useEffect(() => {
    const timer = setInterval(() => setToday(startOfToday()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const load = useCallback(async () => {
    const list = await api.get<ListResponse<SurveyResultSummary>>("/api/surveyresults", {
      query: { duration: 0 },
    });
    setResults([...list.items].sort(newestFirst));
  }, []);
  const loading = useLoader(load);
  const inProgress = useMemo(() => results?.filter((r) => !r.isSubmitted) ?? null, [results]);
  const submitted = useMemo(() => results?.filter((r) => r.isSubmitted) ?? null, [results]);
  const submittedToday = useMemo(
    () => submitted?.filter((r) => new Date(r.updatedAt) >= today) ?? null,
    [submitted, today],
  );
  const count = (rows: unknown[] | null) => (rows === null ? "" : ` (${rows.length})`);

  return (
    <section className="today">
      <div className="page-header">
        <div>
          <h1>Today</h1>
          <p className="hint">{dateLine.format(today)}</p>
        </div>
        <div className="form-actions">
          <Link to="/patients" className="button">
            Find a patient
          </Link>
          <a href="/tablet" className="button primary">
            Start a survey on this tablet
          </a>
        </div>
      </div>
      {may(me, "resendDeliveries") && <StalledQueues />}
      <div className="card">
        <h2>Open safety alerts</h2>
        <SafetyAlerts emptyText="No open safety alerts." />
      </div>
      <div className="card">
        <h2>In progress{count(inProgress)}</h2>
        <p className="hint">Surveys started since yesterday and not submitted yet.</p>
        <DataTable
          caption="Surveys in progress"
          rows={inProgress ?? []}
          rowKey={(r) => r.id}
          rowLabel={(r) => `${r.surveyTitle} of ${r.patientName}`}
          columns={resultColumns("Last saved")}
          empty={listStatus(
            inProgress !== null,
            loading,
            "The surveys in progress",
            "No survey in progress.",
          )}
        />
      </div>
      <div className="card">
        <h2>Submitted today{count(submittedToday)}</h2>
        <DataTable
          caption="Surveys submitted today"
          rows={submittedToday ?? []}
          rowKey={(r) => r.id}
          rowLabel={(r) => `${r.surveyTitle} of ${r.patientName}`}
          columns={resultColumns("Submitted")}
          empty={listStatus(
            submittedToday !== null,
            loading,
            "The surveys submitted today",
            "No survey submitted today yet.",
          )}
        />
        <p>
          <Link to="/results?duration=5">All survey results</Link>
        </p>
      </div>
      <DeliveriesNeedingAttention submitted={submitted} results={loading} />
    </section>
  );
}
