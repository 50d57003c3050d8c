import {
  CORE_CARE_WELLNESS_EXAM_ID,
  getAnswer,
  isQuestionVisible,
  objectId,
  setAnswer,
  setSelectedValues,
  TELE_AWV_SURVEY_ID,
  teleAwvSurvey,
  type Answers,
  type EvalContext,
} from "@core-care/survey-engine";
import { Role, type TenantSettings } from "@core-care/schema";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "./db/index.js";
import {
  deliveries,
  interfaces,
  locations,
  patients,
  patientSurveys,
  reports,
  reportVersions,
  surveyResults,
  tenants,
  userTenants,
  users,
} from "./db/schema.js";
import { enqueueDelivery } from "./delivery/outbox.js";
import { installBuiltinSurveys } from "./services/builtin-surveys.js";
import { hashPassword } from "./services/passwords.js";
import { saveResult } from "./services/result-saves.js";

const DEMO_TENANTS: { id: string; name: string; settings: TenantSettings }[] = [
  { id: "demo", name: "Demo Family Practice", settings: { teleAwvEmail: true, alternateFalls: false } },
  { id: "demo2", name: "Demo Internal Medicine", settings: { teleAwvEmail: false, alternateFalls: false } },
  // SPEC 4 and 9: these three get the alternate falls-risk questions.
  {
    id: "sc-duncan-corecarefp",
    name: "Duncan Family Practice",
    settings: { teleAwvEmail: true, alternateFalls: true },
  },
  { id: "tx-plano-btpa", name: "Plano BTPA", settings: { teleAwvEmail: true, alternateFalls: true } },
  { id: "localhost", name: "Local test tenant", settings: { teleAwvEmail: true, alternateFalls: true } },
];

const DEMO_USERS: { email: string; firstName: string; lastName: string; memberships: [string, number][] }[] =
  [
    { email: "staff@demo.test", firstName: "Sam", lastName: "Staff", memberships: [["demo", Role.user]] },
    { email: "admin@demo.test", firstName: "Ada", lastName: "Admin", memberships: [["demo", Role.admin]] },
    {
      email: "sysadmin@demo.test",
      firstName: "Sid",
      lastName: "Sysadmin",
      memberships: [["demo", Role.sysAdmin]],
    },
    {
      email: "multi@demo.test",
      firstName: "Morgan",
      lastName: "Multi",
      memberships: [
        ["demo", Role.user],
        ["demo2", Role.user],
      ],
    },
  ];

const DEMO_PATIENTS = [
  {
    tenantId: "demo",
    mrn: "D-1001",
    firstName: "Eleanor",
    lastName: "Rigby",
    dob: "1948-03-14",
    sex: "F" as const,
  },
  {
    tenantId: "demo",
    mrn: "D-1002",
    firstName: "Walter",
    lastName: "Hobbs",
    dob: "1952-11-02",
    sex: "M" as const,
  },
  {
    tenantId: "demo",
    mrn: "D-1003",
    firstName: "Rosa",
    lastName: "Delgado",
    dob: "1956-07-21",
    sex: "F" as const,
  },
  {
    tenantId: "demo2",
    mrn: "E-2001",
    firstName: "Harold",
    lastName: "Finch",
    dob: "1950-01-30",
    sex: "M" as const,
  },
];

const SAMPLE_REPORT = {
  title: "AWV Summary",
  script: "",
  markup:
    "<h1>Annual Wellness Visit</h1>\n<p>{{patient.firstName}} {{patient.lastName}}</p>\n<p>PHQ-9 total: {{scores.phq9}}</p>",
  mock: { patient: { firstName: "Jane", lastName: "Sample" }, scores: { phq9: 4 } },
  clinical: true,
};

/** The demo practice's HL7 interface, pointing at the local demo receiver (`delivery/demo-receiver.ts`). */
export const DEMO_INTERFACE_ID = "de0000000000000000000001";
/** The port the demo interface names until a server with its demo receiver running tells the real one. */
export const DEMO_RECEIVER_PORT = 2575;

/** PHQ-9 answers (SPEC 3: 'not at all' ... 'nearly every day'). */
const PHQ_CALM = {
  phq9LittleInterest: "not at all",
  phq9Hopeless: "not at all",
};
/** A positive screen with thoughts of self-harm on some days: one open safety alert, not a severe total. */
const PHQ_SELF_HARM = {
  phq9LittleInterest: "several days",
  phq9Hopeless: "more than half the days",
  phq9Sleep: "not at all",
  phq9Tired: "several days",
  phq9Appetite: "not at all",
  phq9Failure: "not at all",
  phq9Concentration: "not at all",
  phq9Movement: "not at all",
  phq9SelfHarm: "several days",
};

/**
 * A complete Tele-AWV questionnaire: every required question that shows answered with its first choice
 * (no smoking, no diet, living alone), the depression items as given.
 */
export function demoTeleAwvAnswers(depression: Record<string, string>): Answers {
  let answers: Answers = { depression: { ...depression } };
  const context: EvalContext = { answers: { ...answers, ptS: "true", ptPY: "true", pt100: "true" } };
  for (const question of teleAwvSurvey.pages.flatMap((page) => page.questions)) {
    if (!question.required || !isQuestionVisible(question, context)) continue;
    if (getAnswer(answers, question.fieldName) !== undefined) continue;
    if (question.type === "checkbox") {
      answers = setSelectedValues(question, answers, [
        question.noneValue ?? question.choices?.[0]?.value ?? "",
      ]);
    } else if (question.fieldName === "social.smokeYesNoQuit") {
      answers = setAnswer(answers, question.fieldName, "never");
    } else {
      answers = setAnswer(answers, question.fieldName, question.choices?.[0]?.value ?? "yes");
    }
  }
  return answers;
}

/** The demo's survey results: who, which survey, how far, and the fixed request id that keeps them single. */
const DEMO_RESULTS: {
  mrn: string;
  clientRequestId: string;
  surveyId: string;
  isSubmitted: boolean;
  answers: () => Answers;
  /** Sent to the demo interface once seeded (the delivery log then shows an HL7 delivery). */
  send?: true;
}[] = [
  {
    mrn: "D-1001",
    clientRequestId: "demo-seed-teleawv-rigby",
    surveyId: TELE_AWV_SURVEY_ID,
    isSubmitted: true,
    answers: () => demoTeleAwvAnswers(PHQ_CALM),
    send: true,
  },
  {
    mrn: "D-1003",
    clientRequestId: "demo-seed-teleawv-delgado",
    surveyId: TELE_AWV_SURVEY_ID,
    isSubmitted: true,
    answers: () => demoTeleAwvAnswers(PHQ_SELF_HARM),
  },
  {
    mrn: "D-1001",
    clientRequestId: "demo-seed-exam-rigby",
    surveyId: CORE_CARE_WELLNESS_EXAM_ID,
    isSubmitted: true,
    answers: () => ({ health: { general: "good", painScore: 2, weightLb: 142, concerns: "Flu shot" } }),
  },
  {
    mrn: "D-1002",
    clientRequestId: "demo-seed-exam-hobbs",
    surveyId: CORE_CARE_WELLNESS_EXAM_ID,
    isSubmitted: false,
    answers: () => ({ health: { general: "fair", painScore: 4 } }),
  },
];

/**
 * The demo practice's day of work, so a first-time user can try every screen: submitted and in-progress
 * results from the tablet and Tele-AWV (one of them with an open safety alert), a survey assigned to a
 * patient, and an HL7 interface to the local demo receiver with one delivery. Each part is made once: a
 * result by its fixed request id (one removed by a user stays removed), the interface by its id.
 */
async function seedDemoWork(db: Db, receiverPort: number): Promise<void> {
  const tenantId = "demo";
  const [staff] = await db.select({ id: users.id }).from(users).where(eq(users.email, "staff@demo.test"));
  if (staff === undefined) return;
  await db
    .insert(interfaces)
    .values({
      tenantId,
      id: DEMO_INTERFACE_ID,
      name: "Demo EHR (local HL7 receiver)",
      type: "hl7-mllp",
      host: "127.0.0.1",
      port: receiverPort,
      sendingApplication: "CORECARE",
      sendingFacility: "DEMO",
      receivingApplication: "DEMO-EHR",
      receivingFacility: "DEMO",
    })
    .onConflictDoNothing();
  const patientId = async (mrn: string) => {
    const [row] = await db
      .select({ id: patients.id })
      .from(patients)
      .where(and(eq(patients.tenantId, tenantId), eq(patients.mrn, mrn), isNull(patients.deletedAt)));
    return row?.id;
  };
  const hobbs = await patientId("D-1002");
  if (hobbs !== undefined) {
    await db
      .insert(patientSurveys)
      .values({ tenantId, patientId: hobbs, surveyId: CORE_CARE_WELLNESS_EXAM_ID, assignedBy: staff.id })
      .onConflictDoNothing();
  }
  for (const demo of DEMO_RESULTS) {
    const patient = await patientId(demo.mrn);
    if (patient === undefined) continue;
    const [existing] = await db
      .select({ id: surveyResults.id })
      .from(surveyResults)
      .where(
        and(eq(surveyResults.tenantId, tenantId), eq(surveyResults.clientRequestId, demo.clientRequestId)),
      );
    if (existing !== undefined) continue;
    const saved = await saveResult(
      db,
      tenantId,
      {
        clientRequestId: demo.clientRequestId,
        surveyId: demo.surveyId,
        patientId: patient,
        isSubmitted: demo.isSubmitted,
        answers: demo.answers(),
      },
      staff.id,
    );
    if (demo.send === true) {
      const sent = await db
        .select({ id: deliveries.id })
        .from(deliveries)
        .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.resultId, saved.id)))
        .limit(1);
      if (sent.length === 0) {
        await enqueueDelivery(db, {
          tenantId,
          resultId: saved.id,
          interfaceId: DEMO_INTERFACE_ID,
          locationId: null,
          format: "hl7",
          userId: staff.id,
        });
      }
    }
  }
}

/** Points the demo interface at the demo receiver's port of this server (it changes with every start). */
export async function pointDemoInterface(db: Db, port: number): Promise<void> {
  await db
    .update(interfaces)
    .set({ port, updatedAt: new Date() })
    .where(and(eq(interfaces.tenantId, "demo"), eq(interfaces.id, DEMO_INTERFACE_ID)));
}

/**
 * Seeds the demo tenants, users (all with `demoPassword`), patients, the built-in surveys, a sample
 * report and the demo practice's day of work (results, a safety alert, an HL7 interface to the local
 * demo receiver on `receiverPort`). Idempotent: existing rows are left as they are.
 */
export async function seedDemoData(
  db: Db,
  demoPassword: string,
  options: { receiverPort?: number } = {},
): Promise<void> {
  for (const tenant of DEMO_TENANTS) {
    await db.insert(tenants).values(tenant).onConflictDoNothing();
    await installBuiltinSurveys(db, tenant.id);
  }
  for (const u of DEMO_USERS) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, u.email)).limit(1);
    const id = existing?.id ?? objectId();
    if (existing === undefined) {
      await db.insert(users).values({
        id,
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        passwordHash: await hashPassword(demoPassword),
      });
    }
    for (const [tenantId, roles] of u.memberships) {
      await db.insert(userTenants).values({ tenantId, userId: id, roles }).onConflictDoNothing();
    }
  }
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(patients)
    .where(eq(patients.tenantId, "demo"));
  if (n === 0) {
    for (const p of DEMO_PATIENTS) await db.insert(patients).values({ ...p, id: objectId() });
    await db
      .insert(locations)
      .values({ tenantId: "demo", id: objectId(), name: "Main Clinic", code: "MAIN" });
    const reportId = objectId();
    await db.insert(reports).values({
      tenantId: "demo",
      id: reportId,
      title: SAMPLE_REPORT.title,
      version: 1,
      definition: SAMPLE_REPORT,
    });
    await db
      .insert(reportVersions)
      .values({ tenantId: "demo", reportId, version: 1, definition: SAMPLE_REPORT });
  }
  await seedDemoWork(db, options.receiverPort ?? DEMO_RECEIVER_PORT);
}

/** True when the database holds no tenant yet (a first start). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(tenants);
  return (row?.n ?? 0) === 0;
}
