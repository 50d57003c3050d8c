import { useListUrl } from "../../ui/pager";
import { SurveySelect } from "../../ui/dropdowns";
import { usePageTitle } from "../page-title";
import { ExportCsvLink } from "../../ui/export-csv-link";
import { DurationSelect } from "./duration-select";
import { ResultsTable } from "./results-table";
import { SafetyAlerts } from "../../awv/safety-alerts";

function readDuration(value: string | null): 0 | 1 | 5 {
  return value === "0" ? 0 : value === "5" ? 5 : 1;
}

/** Survey results of the tenant, filtered by duration (SPEC 3) and survey; filters live in the URL. */
export default function ResultsPage() {
  usePageTitle("Survey results");
  // Filters, sort and page live in the URL: reload and Back keep them.
  const { params, setParams, position, setFilter, move } = useListUrl();
  const duration = readDuration(params.get("duration"));
  const surveyId = params.get("surveyId") ?? "";
  const sort = {
    key: params.get("sort") ?? "createdAt",
    order: params.get("order") === "asc" ? ("asc" as const) : ("desc" as const),
  };

  function setSort(key: string, order: "asc" | "desc") {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("sort", key);
        next.set("order", order);
        return next;
      },
      { replace: true },
    );
  }

  function update(key: string, value: string) {
    setFilter({ [key]: value || undefined }, { replace: true });
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
        <ExportCsvLink list="results" filters={{ duration, surveyId: surveyId || undefined }} />
      </div>
      <ResultsTable
        query={{ duration, surveyId }}
        paging={{
          position,
          onMove: move,
          sort,
          // Sorting orders the page in hand: the URL keeps it, the page stays.
          onSort: (s) => setSort(s.key, s.order),
        }}
      />
    </section>
  );
}
