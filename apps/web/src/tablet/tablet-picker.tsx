import { useEffect, useId, useState } from "react";
import { Redirect, useLocation, useSearchParams } from "wouter";
import { sortSurveys } from "@core-care/survey-engine";
import type { Patient } from "@core-care/schema";
import { api } from "../api/client";
import { rememberHandover, startHandover, useHandover } from "./handover";
import { TabletShell } from "./tablet-shell";
import { WaitingForConnection } from "./waiting-for-connection";
import { surveyPageUrl } from "./urls";

interface SurveyOption {
  id: string;
  title: string;
}

export interface SurveyChoices {
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

/** The survey chosen at first: the one asked for in the URL when the patient may take it, else the first assigned. */
export function preselected(choices: SurveyChoices, wanted: string | null): string | null {
  const all = [...choices.assigned, ...choices.others];
  if (wanted !== null && all.some((survey) => survey.id === wanted)) return wanted;
  return choices.assigned[0]?.id ?? null;
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
 * first), then hands the tablet over, which ends their session in this browser. While a patient's
 * survey is in progress (the browser holds a patient credential) this screen sends it back to the survey,
 * and without the network it shows only that it waits for the connection.
 */
export function TabletPicker() {
  const state = useHandover();
  if (state.kind === "ready") {
    // Pushed, not replacing /tablet: the Back button from the survey meets /tablet again, which sends it
    // back here, so a patient never goes past it to the staff sign-in page the browser came from.
    return <Redirect to={surveyPageUrl(state.session.surveyId, state.session.pageIndex)} />;
  }
  // Out of reach, it cannot be known whether a patient holds this tablet: nothing of staff work is shown.
  if (state.kind === "offline") return <WaitingForConnection />;
  if (state.kind === "loading") {
    return (
      <TabletShell>
        <main className="tablet-main">
          <p className="tablet-loading" aria-busy="true">
            Loading…
          </p>
        </main>
      </TabletShell>
    );
  }
  return <Picker />;
}

function Picker() {
  const [, navigate] = useLocation();
  const [search] = useSearchParams();
  const [handingOver, setHandingOver] = useState(false);
  const [patient, setPatient] = useState<Patient | null>(null);
  const [choices, setChoices] = useState<SurveyChoices | null>(null);
  const [surveyId, setSurveyId] = useState<string | null>(null);
  // "Start on tablet" of the staff portal opens this page with the patient and the survey chosen.
  const wantedPatient = search.get("patientId");
  const wantedSurvey = search.get("surveyId");

  useEffect(() => {
    if (wantedPatient === null) return;
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
  }, [wantedPatient]);

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
        setSurveyId(
          (current) => current ?? preselected(next, patient.id === wantedPatient ? wantedSurvey : null),
        );
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [patient, wantedPatient, wantedSurvey]);

  const handOver = async () => {
    if (patient === null || surveyId === null || handingOver) return;
    setHandingOver(true);
    try {
      // From here the browser holds only the patient credential; the staff session has ended.
      await rememberHandover(await startHandover(patient.id, surveyId), Date.now());
    } catch {
      setHandingOver(false);
      return;
    }
    // Pushed after /tablet, which sends a Back press straight back to the survey (see TabletPicker).
    navigate(surveyPageUrl(surveyId, 0));
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
                disabled={surveyId === null || handingOver}
                onClick={() => void handOver()}
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
