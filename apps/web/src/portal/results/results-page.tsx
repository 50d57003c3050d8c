import { useSearchParams } from "react-router-dom";
import { SurveySelect } from "../../ui/dropdowns";
import { usePageTitle } from "../page-title";
import { DurationSelect } from "./duration-select";
import { ResultsTable } from "./results-table";
import { SafetyAlerts } from "../../awv/safety-alerts";

function readDuration(value: string | null): 0 | 1 | 5 {
  return value === "0" ? 0 : value === "5" ? 5 : 1;
}

/** Survey results of the tenant, filtered by duration (SPEC 3) and survey; filters live in the URL. */
export default function ResultsPage() {
  usePageTitle("Survey results");
  const [params, setParams] = useSearchParams();
  const duration = readDuration(params.get("duration"));
  const surveyId = params.get("surveyId") ?? "";

  function update(key: string, value: string) {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  }

  return (
    <section>
      <div className="page-header">
        <h1>Survey results</h1>
      </div>
      <SafetyAlerts />
      <div className="toolbar">
        <DurationSelect value={duration} onChange={(d) => update("duration", String(d))} />
        <SurveySelect name="surveyId" value={surveyId} onChange={(v) => update("surveyId", v)} />
      </div>
      <ResultsTable query={{ duration, surveyId }} />
    </section>
  );
}
