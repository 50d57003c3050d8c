import { useParams } from "react-router-dom";
import type { PlanItem, PreventionPlanResponse } from "@core-care/schema";
import { api } from "../../api/client";
import { i18n } from "../../i18n/i18n";
import { usePageTitle } from "../page-title";
import { PrintFrame, PrintPending, usePrinted } from "./print-parts";

const SEX_WORDS: Record<string, string> = { F: "Female", M: "Male", U: "Unknown" };
const STATUS_WORDS: Record<PlanItem["status"], string> = {
  due: "Due",
  scheduled: "Scheduled",
  discuss: "Discuss (shared decision)",
  review: "Review: a fact is missing",
  complete: "Complete",
  "not-recommended": "Not recommended",
};

const readPlan = (resultId: string) =>
  api.get<PreventionPlanResponse>(`/api/surveyresults/${encodeURIComponent(resultId)}/plan`);

function Source({ source }: { source: PlanItem["source"] }) {
  return (
    <a href={source.url} rel="noreferrer" target="_blank">
      {`${source.name}: ${source.title}`}
      {source.grade ? ` (grade ${source.grade})` : ""}
      {`, ${source.version}`}
    </a>
  );
}

/** When an item is due, in the clinician's words. */
const dueWords = (item: PlanItem) =>
  item.due === "now" ? "Now" : item.due === "not-recommended" ? "Not recommended" : item.due;

/** Items the patient acts on: due, scheduled, to discuss or to ask about. */
const forPatient = (plan: PreventionPlanResponse) =>
  plan.items.filter((item) => ["due", "scheduled", "discuss", "review"].includes(item.status));

/** The patient's part, in the patient's language, in plain words. */
function PatientPlan({ plan }: { plan: PreventionPlanResponse }) {
  const t = i18n.getFixedT(plan.language);
  const when = (item: PlanItem) => {
    if (item.status === "review") return t("plan.whenAsk");
    if (item.status === "discuss") return t("plan.whenDiscuss");
    return item.due === "now" ? t("plan.whenNow") : t("plan.whenDate", { date: item.due });
  };
  const items = forPatient(plan);
  const now = items.filter((item) => item.due === "now");
  const later = items.filter((item) => item.due !== "now");
  const list = (shown: PlanItem[]) => (
    <ul className="plan-list">
      {shown.map((item) => (
        <li key={item.ruleId}>
          <h4>{t(`plan.topic.${item.topic}`, { defaultValue: item.title })}</h4>
          <p>
            <strong>{`${t("plan.when")}: `}</strong>
            {when(item)}
          </p>
          <p>{item.patient[plan.language]}</p>
          <p className="plan-source">
            {`${t("plan.source")}: `}
            <Source source={item.source} />
          </p>
        </li>
      ))}
    </ul>
  );
  return (
    <section className="plan-patient" lang={plan.language} aria-labelledby="plan-patient-heading">
      <h2 id="plan-patient-heading">{t("plan.heading")}</h2>
      <p>{t("plan.intro")}</p>
      <p className="hint">{t("plan.readingLevel")}</p>
      {now.length > 0 ? (
        <>
          <h3>{t("plan.whenNow")}</h3>
          {list(now)}
        </>
      ) : null}
      {later.length > 0 ? (
        <>
          <h3>{t("plan.upcomingHeading")}</h3>
          {list(later)}
        </>
      ) : null}
      {plan.riskFactors.length > 0 ? (
        <>
          <h3>{t("plan.adviceHeading")}</h3>
          <ul className="plan-list">
            {plan.riskFactors.map((risk) => (
              <li key={risk.id}>
                <p>{risk.advice[plan.language]}</p>
                <p className="plan-source">
                  {`${t("plan.source")}: `}
                  <Source source={risk.source} />
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** The clinician's part: every item with its reason and source, the schedule, what to ask, the codes. */
function ClinicianPlan({ plan }: { plan: PreventionPlanResponse }) {
  return (
    <section className="plan-clinician" aria-labelledby="plan-clinician-heading">
      <h2 id="plan-clinician-heading">For the clinician</h2>
      <h3>Screenings, immunizations and counseling</h3>
      <table className="data plan-items">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Due</th>
            <th scope="col">Why</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {plan.items.map((item) => (
            <tr key={item.ruleId}>
              <th scope="row">
                {item.title}
                <span className="plan-status">{STATUS_WORDS[item.status]}</span>
              </th>
              <td>{dueWords(item)}</td>
              <td>
                {item.reason}
                {item.medicare ? (
                  <p className="plan-medicare">
                    {`Medicare: ${item.medicare.coverage}`}
                    {item.medicare.nextCovered ? ` Next covered: ${item.medicare.nextCovered}.` : ""}
                  </p>
                ) : null}
                {item.ask ? <p className="plan-ask">{`Ask at the visit: ${item.ask.join("; ")}.`}</p> : null}
              </td>
              <td>
                <Source source={item.source} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>{`Written schedule, ${plan.horizon.from} to ${plan.horizon.to}`}</h3>
      {plan.schedule.length === 0 ? (
        <p>Nothing falls due in these years.</p>
      ) : (
        <table className="data plan-schedule">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Item</th>
            </tr>
          </thead>
          <tbody>
            {plan.schedule.map((entry) => (
              <tr key={`${entry.date} ${entry.ruleId}`}>
                <td>{entry.now ? `${entry.date} (now)` : entry.date}</td>
                <td>{entry.title}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>Risk factors and interventions</h3>
      {plan.riskFactors.length === 0 ? (
        <p>None found in the answers.</p>
      ) : (
        <ul className="plan-list">
          {plan.riskFactors.map((risk) => (
            <li key={risk.id}>
              <h4>{risk.title}</h4>
              <p>{`Found: ${risk.found}`}</p>
              <ul>
                {risk.interventions.map((intervention) => (
                  <li key={intervention}>{intervention}</li>
                ))}
              </ul>
              <p className="plan-source">
                {"Source: "}
                <Source source={risk.source} />
              </p>
            </li>
          ))}
        </ul>
      )}

      <h3>Ask at the visit</h3>
      {plan.askAtVisit.length === 0 ? (
        <p>The answers gave every fact the plan reads.</p>
      ) : (
        <ul className="plan-asks">
          {plan.askAtVisit.map((ask) => (
            <li key={ask.fact}>{ask.ask}</li>
          ))}
        </ul>
      )}

      {plan.billing ? (
        <>
          <h3>Suggested billing</h3>
          <table className="data plan-billing">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Suggested</th>
                <th scope="col">Rule</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {[plan.billing.visit, ...plan.billing.addOns].map((code) => (
                <tr key={code.code}>
                  <th scope="row">{code.modifier ? `${code.code}-${code.modifier}` : code.code}</th>
                  <td>
                    {code.applies
                      ? "Yes"
                      : code.billableFrom
                        ? `Not yet: billable from ${code.billableFrom}`
                        : "No"}
                  </td>
                  <td>{code.rule}</td>
                  <td>
                    <Source source={code.source} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {plan.billing.notes.map((note) => (
            <p key={note} className="hint">
              {note}
            </p>
          ))}
        </>
      ) : null}
      <p className="hint">
        {`Rules: ${plan.rules.name} ${plan.rules.version}, published ${plan.rules.published}. Plan made ${plan.generatedAt.slice(0, 10)}.`}
      </p>
    </section>
  );
}

/** The personalised prevention plan of a result (/results/:resultId/plan), printable. */
export default function PlanPrintPage() {
  const { resultId = "" } = useParams();
  usePageTitle("Prevention plan");
  const { printed: plan, loading } = usePrinted(resultId, readPlan);
  if (!plan) {
    return (
      <PrintPending
        loading={loading}
        what="Survey result"
        backTo="/results"
        backLabel="Back to survey results"
      />
    );
  }
  return (
    <PrintFrame
      practice={plan.practice.name}
      title="Prevention plan"
      back={`/results/${plan.resultId}`}
      backLabel="Back to the result"
    >
      <p className="notice plan-review" role="note">
        Decision support: review and edit this plan with the patient before it is given to them. Suggested
        codes are for the biller to confirm.
      </p>
      <dl className="print-identifiers" aria-label="Patient">
        <dt>Patient</dt>
        <dd>{`${plan.patient.lastName}, ${plan.patient.firstName}`}</dd>
        <dt>MRN</dt>
        <dd>{plan.patient.mrn}</dd>
        <dt>Date of birth</dt>
        <dd>{plan.patient.dob}</dd>
        <dt>Sex</dt>
        <dd>{SEX_WORDS[plan.patient.sex] ?? plan.patient.sex}</dd>
        <dt>From</dt>
        <dd>{`${plan.surveyTitle}, ${plan.asOf}`}</dd>
        <dt>Language</dt>
        <dd>{plan.language === "es" ? "Spanish" : "English"}</dd>
      </dl>
      <PatientPlan plan={plan} />
      <ClinicianPlan plan={plan} />
    </PrintFrame>
  );
}
