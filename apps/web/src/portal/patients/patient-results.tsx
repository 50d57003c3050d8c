import { useState } from "react";
import type { Patient } from "../../api/types";
import { DurationSelect } from "../results/duration-select";
import { ResultsTable } from "../results/results-table";
import { ExportCsvLink } from "../../ui/export-csv-link";

/** A patient's survey results. */
export function PatientResults({ patient }: { patient: Patient }) {
  const [duration, setDuration] = useState<0 | 1 | 5>(5);
  return (
    <div className="card">
      <h2>Survey results</h2>
      <div className="toolbar">
        <DurationSelect value={duration} onChange={setDuration} />
        <ExportCsvLink
          list="results"
          filters={{ duration, patientId: patient.id }}
          label={`survey results of ${patient.firstName} ${patient.lastName}`}
        />
      </div>
      <ResultsTable query={{ duration, patientId: patient.id }} showPatient={false} />
    </div>
  );
}
