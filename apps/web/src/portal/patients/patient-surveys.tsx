import { useCallback, useState } from "react";
import { api } from "../../api/client";
import type { Patient, PatientSurvey } from "../../api/types";
import { RemoveRecordModal } from "../../ui/confirm-modal";
import { DataTable, sortRows, type SortState } from "../../ui/data-table";
import { SurveySelect, useSurveys } from "../../ui/dropdowns";
import { formatDateTime } from "../format";
import { listStatus, useLoader } from "../../ui/load-state";
import { StartOnTablet } from "../tablet-link";

/** The surveys assigned to a patient: assign one from the ordered dropdown, remove one. */
export function PatientSurveys({ patient }: { patient: Patient }) {
  const surveys = useSurveys();
  const [assigned, setAssigned] = useState<PatientSurvey[] | null>(null);
  const [choice, setChoice] = useState("");
  const [sort, setSort] = useState<SortState | undefined>(undefined);
  const [removing, setRemoving] = useState<PatientSurvey | null>(null);

  const load = useCallback(async () => {
    setAssigned(await api.get<PatientSurvey[]>(`/api/patients/${patient.id}/surveys`));
  }, [patient.id]);
  const loading = useLoader(load);

  async function assign() {
    if (!choice) return;
    await api.post(`/api/patients/${patient.id}/surveys`, { surveyId: choice });
    setChoice("");
    await load();
  }

  async function remove(item: PatientSurvey) {
    setRemoving(null);
    await api.del(`/api/patients/${patient.id}/surveys/${item.surveyId}`);
    await load();
  }

  const available = surveys?.filter((s) => !assigned?.some((a) => a.surveyId === s.id)) ?? null;
  return (
    <div className="card">
      <h2>Surveys</h2>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          assign().catch(() => undefined);
        }}
      >
        <SurveySelect
          name="surveyId"
          label="Survey to assign"
          placeholder="Choose a survey"
          surveys={available}
          value={choice}
          onChange={setChoice}
        />
        <button type="submit" className="button primary" disabled={!choice}>
          Assign survey
        </button>
      </form>
      <DataTable
        caption={`Surveys of ${patient.firstName} ${patient.lastName}`}
        rows={sortRows(assigned ?? [], sort, (row, key) => row[key as keyof PatientSurvey])}
        rowKey={(s) => s.surveyId}
        rowLabel={(s) => s.title}
        columns={[
          { key: "title", header: "Survey", sortable: true },
          {
            key: "assignedAt",
            header: "Assigned",
            sortable: true,
            render: (s) => formatDateTime(s.assignedAt),
          },
        ]}
        sort={sort}
        onSort={setSort}
        actions={{
          extra: (s) => <StartOnTablet patientId={patient.id} surveyId={s.surveyId} label={s.title} small />,
          onRemove: setRemoving,
        }}
        empty={listStatus(assigned !== null, loading, "The assigned surveys", "No survey assigned.")}
      />
      {removing && (
        <RemoveRecordModal
          record={`Survey "${removing.title}" assigned to ${patient.firstName} ${patient.lastName}`}
          onClose={() => setRemoving(null)}
          onConfirm={() => void remove(removing).catch(() => undefined)}
        />
      )}
    </div>
  );
}
