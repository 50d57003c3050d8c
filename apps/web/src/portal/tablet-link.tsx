/** The tablet hand-over with a patient, and a survey, chosen (the tablet is its own page: a full load). */
export function tabletUrl(patientId: string, surveyId?: string): string {
  const query = new URLSearchParams({ patientId });
  if (surveyId !== undefined) query.set("surveyId", surveyId);
  return `/tablet?${query.toString()}`;
}

/**
 * "Start on tablet": opens the tablet hand-over on this device with the patient (and the survey) chosen;
 * staff then hand the tablet over, which ends their session on it. `label` names the patient and survey
 * for screen readers where many such links stand in a list.
 */
export function StartOnTablet({
  patientId,
  surveyId,
  label,
  small = false,
}: {
  patientId: string;
  surveyId?: string;
  label?: string;
  small?: boolean;
}) {
  return (
    <a className={`button${small ? " small" : ""}`} href={tabletUrl(patientId, surveyId)}>
      Start on tablet
      {label !== undefined && <span className="visually-hidden"> {label}</span>}
    </a>
  );
}
