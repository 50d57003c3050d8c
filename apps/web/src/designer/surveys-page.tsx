import { useCallback, useState } from "react";
import { useNavigate } from "react-router-dom";
import { createSurvey, type Survey } from "@core-care/survey-engine";
import { api } from "../api/client";
import { useMe, may } from "../api/session";
import { type ListResponse, type SurveySummary } from "../api/types";
import { usePageTitle } from "../portal/page-title";
import { RemoveRecordModal } from "../ui/confirm-modal";
import { DataTable, sortRows, type SortState } from "../ui/data-table";
import { listStatus, useLoader } from "../ui/load-state";
import { createLocalCopy } from "./local-copy";
import { documentPath } from "./remote-save";
import "./designer.css";

/**
 * The surveys the tenant may use (SPEC 1, 3): its own, editable by admins, and other tenants' surveys
 * marked canSubscribeTo, shown read-only. New surveys start in the local copy until their first save.
 */
export default function SurveysPage() {
  usePageTitle("Surveys");
  const me = useMe();
  const navigate = useNavigate();
  const [surveys, setSurveys] = useState<SurveySummary[] | null>(null);
  const [sort, setSort] = useState<SortState>({ key: "title", order: "asc" });
  const [removing, setRemoving] = useState<SurveySummary | null>(null);
  const canEdit = may(me, "editSurveys");

  const load = useCallback(async () => {
    const list = await api.get<ListResponse<SurveySummary>>("/api/surveys");
    setSurveys(list.items);
  }, []);
  const loading = useLoader(load);

  const create = () => {
    const survey = createSurvey();
    createLocalCopy<Survey>("survey").write(survey, false);
    void navigate(`/surveys/${survey.id}`);
  };

  const remove = async (survey: SurveySummary) => {
    setRemoving(null);
    try {
      await api.del(documentPath("survey", survey.id));
    } catch {
      return;
    }
    const local = createLocalCopy<Survey>("survey");
    if (local.read()?.document.id === survey.id) local.clear();
    loading.retry();
  };

  return (
    <section className="designer">
      <div className="page-header">
        <h1>Surveys</h1>
        {canEdit ? (
          <button type="button" className="button primary" onClick={create}>
            New survey
          </button>
        ) : null}
      </div>
      <DataTable
        caption="Surveys"
        rows={sortRows(surveys ?? [], sort, (row, key) => row[key as keyof SurveySummary])}
        rowKey={(s) => s.id}
        rowLabel={(s) => s.title}
        columns={[
          { key: "title", header: "Title", sortable: true },
          { key: "version", header: "Version", sortable: true },
          {
            key: "canSubscribeTo",
            header: "Shared",
            sortable: true,
            render: (s) => (s.readOnly ? "Shared with you (read-only)" : s.canSubscribeTo ? "Yes" : "No"),
          },
        ]}
        sort={sort}
        onSort={setSort}
        actions={{
          onEdit: (s) => void navigate(`/surveys/${s.id}`),
          extra: (s) =>
            canEdit && !s.readOnly ? (
              <button type="button" className="button danger small" onClick={() => setRemoving(s)}>
                Remove<span className="visually-hidden"> {s.title}</span>
              </button>
            ) : null,
        }}
        empty={listStatus(surveys !== null, loading, "The surveys", "No surveys yet.")}
      />
      {removing ? (
        <RemoveRecordModal
          record={`Survey "${removing.title}"`}
          onConfirm={() => void remove(removing)}
          onClose={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}
