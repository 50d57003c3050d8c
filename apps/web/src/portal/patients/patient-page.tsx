import { useCallback, useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { api } from "../../api/client";
import { formFailure, NO_FAILURE, type FormFailure } from "../../ui/field-errors";
import type { ListResponse, Location, Patient, PatientInput } from "../../api/types";
import { usePageTitle } from "../page-title";
import { PATIENT_FIELDS, PatientForm } from "./patient-form";
import { PatientResults } from "./patient-results";
import { PatientSurveys } from "./patient-surveys";
import { AwvEmailForm } from "../../awv/awv-email-form";
import { LoadError, NOT_FOUND, useLoader } from "../../ui/load-state";
import { RecordNotFound } from "../../ui/not-found";
import { StartOnTablet } from "../tablet-link";

/** Create (/patients/new) or edit (/patients/{id}) a patient, with the patient's surveys and results. */
export default function PatientPage() {
  const { patientId } = useParams();
  const navigate = useNavigate();
  const isNew = patientId === undefined;
  const [patient, setPatient] = useState<Patient | null>(null);
  const [locations, setLocations] = useState<Location[]>([]);
  const [error, setError] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState("");
  usePageTitle(isNew ? "New patient" : "Patient");

  const loadPatient = useCallback(async () => {
    setPatient(null);
    if (patientId) setPatient(await api.get<Patient>(`/api/patients/${patientId}`));
  }, [patientId]);
  const loading = useLoader(loadPatient);

  useEffect(() => {
    let live = true;
    api.get<ListResponse<Location> | Location[]>("/api/locations", { handleErrors: true }).then(
      (list) => live && setLocations(Array.isArray(list) ? list : list.items),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [patientId]);

  async function submit(input: PatientInput) {
    setError(NO_FAILURE);
    setSaved("");
    setBusy(true);
    try {
      if (isNew) {
        const created = await api.post<Patient>("/api/patients", input, { handleErrors: true });
        await navigate(`/patients/${created.id}`, { replace: true });
      } else {
        const updated = await api.put<Patient>(`/api/patients/${patientId}`, input, { handleErrors: true });
        setPatient(updated);
        setSaved("Patient saved.");
      }
    } catch (cause) {
      setError(formFailure(cause, PATIENT_FIELDS));
    } finally {
      setBusy(false);
    }
  }

  if (!isNew && !patient) {
    if (loading.failed === NOT_FOUND) {
      return <RecordNotFound what="Patient" backTo="/patients" backLabel="Back to patients" />;
    }
    if (loading.failed !== null) return <LoadError what="The patient" state={loading} />;
    return <div className="page-loading" aria-busy="true" />;
  }
  const title = patient ? `${patient.firstName} ${patient.lastName}` : "New patient";
  return (
    <section>
      <div className="page-header">
        <h1>{title}</h1>
        <div className="form-actions">
          {patient && <StartOnTablet patientId={patient.id} />}
          {patient && (
            <Link className="button" to={`/patients/${patient.id}/print`}>
              Print
            </Link>
          )}
          <Link to="/patients">Back to patients</Link>
        </div>
      </div>
      <div className="card">
        <h2>Details</h2>
        {saved && (
          <p className="notice success" role="status">
            {saved}
          </p>
        )}
        <PatientForm
          key={patient?.id ?? "new"}
          patient={patient ?? undefined}
          locations={locations}
          submitLabel={isNew ? "Create patient" : "Save patient"}
          error={error}
          busy={busy}
          onSubmit={(input) => void submit(input)}
          onCancel={() => void navigate("/patients")}
        />
      </div>
      {patient && (
        <>
          <PatientSurveys patient={patient} />
          <AwvEmailForm patient={patient} />
          <PatientResults patient={patient} />
        </>
      )}
    </section>
  );
}
