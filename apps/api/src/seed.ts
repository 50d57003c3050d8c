import { objectId } from "@core-care/survey-engine";
import { Role, type TenantSettings } from "@core-care/schema";
import { count, eq } from "drizzle-orm";
import type { Db } from "./db/index.js";
import { locations, patients, reports, reportVersions, tenants, userTenants, users } from "./db/schema.js";
import { installBuiltinSurveys } from "./services/builtin-surveys.js";
import { hashPassword } from "./services/passwords.js";

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

/**
 * Seeds the demo tenants, users (all with `demoPassword`), patients, the built-in surveys and a sample
 * report. Idempotent: existing rows are left as they are.
 */
export async function seedDemoData(db: Db, demoPassword: string): Promise<void> {
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
}

/** True when the database holds no tenant yet (a first start). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(tenants);
  return (row?.n ?? 0) === 0;
}
