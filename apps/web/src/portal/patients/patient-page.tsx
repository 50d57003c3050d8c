import { useEffect, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { api, formErrorMessage } from "../../api/client";
import type { ListResponse, Location, Patient, PatientInput } from "../../api/types";
import { usePageTitle } from "../page-title";
import { PatientForm } from "./patient-form";
import { PatientResults } from "./patient-results";
import { PatientSurveys } from "./patient-surveys";
import { AwvEmailForm } from "../../awv/awv-email-form";

/** Create (/patients/new) or edit (/patients/{id}) a patient, with the patient's surveys and results. */
export default function PatientPage() {
  const { patientId } = useParams();
  const navigate = useNavigate();
  const isNew = patientId === undefined;
  const [patient, setPatient] = useState<Patient | null>(null);
  const [locations, setLocations] = useState<Location[]>([]);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState("");
  usePageTitle(isNew ? "New patient" : "Patient");

  useEffect(() => {
    let live = true;
    setPatient(null);
    if (patientId) {
      api.get<Patient>(`/api/patients/${patientId}`).then(
        (p) => live && setPatient(p),
        () => undefined,
      );
    }
    api.get<ListResponse<Location> | Location[]>("/api/locations", { handleErrors: true }).then(
      (list) => live && setLocations(Array.isArray(list) ? list : list.items),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [patientId]);

  async function submit(input: PatientInput) {
    setError("");
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
      setError(formErrorMessage(cause));
    } finally {
      setBusy(false);
    }
  }

  if (!isNew && !patient) return <div className="page-loading" aria-busy="true" />;
  const title = patient ? `${patient.firstName} ${patient.lastName}` : "New patient";
  return (
    <section>
      <div className="page-header">
        <h1>{title}</h1>
        <Link to="/patients">Back to patients</Link>
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
