import { useEffect, useId, useState } from "react";
import { Navigate, useNavigate, useSearchParams } from "react-router-dom";
import { objectId, sortSurveys } from "@core-care/survey-engine";
import type { Patient } from "@core-care/schema";
import { api } from "../api/client";
import { readTabletSession, startTabletSession } from "./tablet-session";
import { TabletShell } from "./tablet-shell";
import { DEFAULT_IDLE_SECONDS, surveyPageUrl } from "./urls";

interface SurveyOption {
  id: string;
  title: string;
}

interface SurveyChoices {
  assigned: SurveyOption[];
  others: SurveyOption[];
}

const SEARCH_DELAY_MS = 300;

function patientLabel(patient: Patient): string {
  return `${patient.lastName}, ${patient.firstName}`;
}

/** Assigned surveys first, then every other survey; each part in `sortSurveys` order (SPEC 2). */
export function surveyChoices(
  assigned: readonly { surveyId: string; title: string }[],
  all: readonly SurveyOption[],
): SurveyChoices {
  const assignedIds = new Set(assigned.map((item) => item.surveyId));
  return {
    assigned: sortSurveys(assigned.map((item) => ({ id: item.surveyId, title: item.title }))),
    others: sortSurveys(all.filter((survey) => !assignedIds.has(survey.id))),
  };
}

function PatientSearch({ onPick }: { onPick: (patient: Patient) => void }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Patient[] | null>(null);

  useEffect(() => {
    const q = query.trim();
    if (q === "") {
      setResults(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .get<{ items: Patient[] }>("/api/patients", {
          query: { q, sort: "lastName", order: "asc", limit: 20 },
          signal: controller.signal,
        })
        .then(
          (list) => setResults(list.items),
          () => undefined,
        );
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  return (
    <div className="tablet-search">
      <label className="sv-title" htmlFor={`${id}-q`}>
        Find the patient
      </label>
      <p className="sv-help" id={`${id}-help`}>
        Name, MRN or e-mail
      </p>
      <input
        id={`${id}-q`}
        className="sv-input"
        type="search"
        autoComplete="off"
        aria-describedby={`${id}-help`}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <div role="status" className="tablet-search-status">
        {results !== null && results.length === 0 ? "No patients found." : ""}
      </div>
      {results !== null && results.length > 0 ? (
        <ul className="tablet-results" aria-label="Patients found">
          {results.map((patient) => (
            <li key={patient.id}>
              <button type="button" className="tablet-result" onClick={() => onPick(patient)}>
                <span className="tablet-result-name">{patientLabel(patient)}</span>
                <span className="tablet-result-meta">
                  Born {patient.dob} · MRN {patient.mrn}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function SurveyGroup({
  legend,
  surveys,
  selected,
  onSelect,
}: {
  legend: string;
  surveys: SurveyOption[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  if (surveys.length === 0) return null;
  return (
    <fieldset className="sv-question sv-choices">
      <legend className="sv-title">{legend}</legend>
      <div className="sv-options tablet-survey-options">
        {surveys.map((survey) => (
          <label key={survey.id} className={`sv-option${selected === survey.id ? " is-checked" : ""}`}>
            <input
              type="radio"
              name="survey"
              value={survey.id}
              checked={selected === survey.id}
              onChange={() => onSelect(survey.id)}
            />
            <span>{survey.title}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * `/tablet` (SPEC 2): a signed-in staff member picks a patient and one of the surveys (assigned
 * first), then hands the tablet over. While a patient's survey is in progress this screen is
 * locked and sends the browser back to the survey.
 */
export function TabletPicker() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [active] = useState(() => readTabletSession(localStorage, Date.now(), DEFAULT_IDLE_SECONDS * 1000));
  const [patient, setPatient] = useState<Patient | null>(null);
  const [choices, setChoices] = useState<SurveyChoices | null>(null);
  const [surveyId, setSurveyId] = useState<string | null>(null);
  const wantedPatient = search.get("patientId");

  useEffect(() => {
    if (active !== null || wantedPatient === null) return;
    let cancelled = false;
    api.get<Patient>(`/api/patients/${encodeURIComponent(wantedPatient)}`).then(
      (found) => {
        if (!cancelled) setPatient(found);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [active, wantedPatient]);

  useEffect(() => {
    if (patient === null) {
      setChoices(null);
      return;
    }
    let cancelled = false;
    Promise.all([
      api.get<{ surveyId: string; title: string }[]>(
        `/api/patients/${encodeURIComponent(patient.id)}/surveys`,
      ),
      api.get<{ items: SurveyOption[] }>("/api/surveys"),
    ]).then(
      ([assigned, all]) => {
        if (cancelled) return;
        const next = surveyChoices(assigned, all.items);
        setChoices(next);
        setSurveyId((current) => current ?? next.assigned[0]?.id ?? null);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [patient]);

  if (active !== null) return <Navigate to={surveyPageUrl(active.surveyId, active.pageIndex)} />;

  const handOver = () => {
    if (patient === null || surveyId === null) return;
    startTabletSession(localStorage, {
      patientId: patient.id,
      surveyId,
      clientRequestId: objectId(),
      now: Date.now(),
    });
    void navigate(surveyPageUrl(surveyId, 0));
  };

  return (
    <TabletShell
      actions={
        <a className="tablet-link" href="/">
          Staff portal
        </a>
      }
    >
      <main className="tablet-main tablet-picker">
        <h1>Start a survey on this tablet</h1>
        <section aria-labelledby="tablet-patient-heading">
          <h2 id="tablet-patient-heading">Patient</h2>
          {patient === null ? (
            <PatientSearch
              onPick={(picked) => {
                setSurveyId(null);
                setPatient(picked);
              }}
            />
          ) : (
            <div className="tablet-selected">
              <p>
                <strong>{patientLabel(patient)}</strong>
                <br />
                Born {patient.dob} · MRN {patient.mrn}
              </p>
              <button
                type="button"
                className="sv-button sv-button-secondary"
                onClick={() => {
                  setPatient(null);
                  setSurveyId(null);
                }}
              >
                Change patient
              </button>
            </div>
          )}
        </section>
        {patient !== null ? (
          <section aria-labelledby="tablet-survey-heading">
            <h2 id="tablet-survey-heading">Survey</h2>
            {choices === null ? (
              <p aria-busy="true">Loading surveys…</p>
            ) : (
              <>
                <SurveyGroup
                  legend="Assigned to this patient"
                  surveys={choices.assigned}
                  selected={surveyId}
                  onSelect={setSurveyId}
                />
                <SurveyGroup
                  legend={choices.assigned.length > 0 ? "Other surveys" : "Surveys"}
                  surveys={choices.others}
                  selected={surveyId}
                  onSelect={setSurveyId}
                />
              </>
            )}
            <div className="sv-nav">
              <span />
              <button
                type="button"
                className="sv-button sv-button-primary"
                disabled={surveyId === null}
                onClick={handOver}
              >
                Hand the tablet to the patient
              </button>
            </div>
          </section>
        ) : null}
      </main>
    </TabletShell>
  );
}
