import { describe, expect, test } from "vitest";
import { ChangePasswordRequestSchema, LoginRequestSchema } from "./auth.js";
import { SendAwvEmailRequestSchema } from "./awv.js";
import { listOf, ObjectIdSchema } from "./common.js";
import { DURATION_LABELS, Duration, DurationSchema } from "./duration.js";
import { InterfaceSchema, InterfaceSettingsSchema } from "./interface.js";
import { PatientInputSchema, PatientListQuerySchema } from "./patient.js";
import { ReportSchema } from "./report.js";
import { SurveyResultSaveRequestSchema } from "./survey-result.js";
import { TenantSchema } from "./tenant.js";
import { TestUserCreateRequestSchema, UpdateMeRequestSchema } from "./user.js";

const id = "65a1b2c3d4e5f60718293a4b";

describe("ObjectIdSchema", () => {
  test("accepts 24 lowercase hex characters only", () => {
    expect(ObjectIdSchema.safeParse(id).success).toBe(true);
    expect(ObjectIdSchema.safeParse(id.toUpperCase()).success).toBe(false);
    expect(ObjectIdSchema.safeParse(id.slice(1)).success).toBe(false);
  });
});

describe("listOf", () => {
  test("wraps items in the {items,total} envelope", () => {
    expect(listOf(ObjectIdSchema).parse({ items: [id], total: 1 })).toEqual({ items: [id], total: 1 });
  });
});

describe("DurationSchema", () => {
  test("reads the query string values 0, 1 and 5 with the spec labels", () => {
    expect(DurationSchema.parse("0")).toBe(Duration.Yesterday);
    expect(DurationSchema.parse("5")).toBe(Duration.All);
    expect(DURATION_LABELS[Duration.Yesterday]).toBe("Since Yesterday");
    expect(DurationSchema.safeParse("2").success).toBe(false);
  });
});

describe("ReportSchema", () => {
  test("defaults the title to 'Unnamed Report'", () => {
    expect(ReportSchema.parse({ id: "r1" }).title).toBe("Unnamed Report");
  });
});

describe("TenantSchema", () => {
  test("defaults both settings to false", () => {
    expect(TenantSchema.parse({ id: "demo", name: "Demo" }).settings).toEqual({
      teleAwvEmail: false,
      alternateFalls: false,
    });
  });
});

describe("LoginRequestSchema", () => {
  test("normalises the e-mail to trimmed lower case and keeps the password as typed", () => {
    expect(LoginRequestSchema.parse({ email: " Staff@Demo.Test ", password: " p " })).toEqual({
      email: "staff@demo.test",
      password: " p ",
    });
  });
});

describe("ChangePasswordRequestSchema", () => {
  test("names confirmPassword when the two new passwords differ", () => {
    const result = ChangePasswordRequestSchema.safeParse({
      email: "a@b.test",
      oldPassword: "x",
      password: "correct horse battery staple",
      confirmPassword: "correct horse battery stapler",
    });
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["confirmPassword"]);
  });

  test("refuses a new password shorter than 15 characters", () => {
    const result = ChangePasswordRequestSchema.safeParse({
      email: "a@b.test",
      oldPassword: "x",
      password: "short",
      confirmPassword: "short",
    });
    expect(result.error?.issues[0]?.path).toEqual(["password"]);
  });
});

describe("UpdateMeRequestSchema", () => {
  test("treats blank new-password fields as keeping the password", () => {
    const parsed = UpdateMeRequestSchema.parse({
      firstName: "Ann",
      lastName: "Lee",
      currentPassword: "secret",
      newPassword: "",
      confirmPassword: "",
    });
    expect(parsed.newPassword).toBeUndefined();
  });
});

describe("TestUserCreateRequestSchema", () => {
  test("defaults roles to 'User'", () => {
    expect(TestUserCreateRequestSchema.parse({ name: "T", email: "t@x.test" }).roles).toBe("User");
  });
});

describe("PatientInputSchema", () => {
  test("drops blank optional fields and rejects an impossible date", () => {
    const base = { mrn: "1", firstName: "A", lastName: "B", sex: "F", email: "", race: "" };
    expect(PatientInputSchema.parse({ ...base, dob: "1950-02-03" })).toEqual({
      mrn: "1",
      firstName: "A",
      lastName: "B",
      sex: "F",
      dob: "1950-02-03",
    });
    expect(PatientInputSchema.safeParse({ ...base, dob: "1950-02-30" }).error?.issues[0]?.path).toEqual([
      "dob",
    ]);
  });

  test("caps the list limit at the page size of 200", () => {
    expect(PatientListQuerySchema.safeParse({ limit: "201" }).success).toBe(false);
    expect(PatientListQuerySchema.parse({})).toEqual({ sort: "lastName", order: "asc", page: 1, limit: 200 });
  });
});

describe("SurveyResultSaveRequestSchema", () => {
  test("requires a client request id", () => {
    const result = SurveyResultSaveRequestSchema.safeParse({ surveyId: "s1", patientId: id, answers: {} });
    expect(result.error?.issues[0]?.path).toEqual(["clientRequestId"]);
  });
});

describe("InterfaceSchema", () => {
  test("never carries a secret on output", () => {
    const parsed = InterfaceSchema.parse({
      id,
      name: "EHR",
      type: "hl7-mllp",
      host: "10.0.0.5",
      port: 2575,
      hasSecret: true,
      secret: "hunter2",
    });
    expect(parsed).not.toHaveProperty("secret");
  });

  test("fills the delivery settings an interface does not give with the defaults", () => {
    expect(InterfaceSettingsSchema.parse({ maxAttempts: 3 })).toEqual({
      ackTimeoutSeconds: 30,
      retryDelaysSeconds: [10, 20, 40, 80, 160, 320, 640, 1280, 1800],
      maxAttempts: 3,
    });
    const refused = InterfaceSettingsSchema.safeParse({ ackTimeoutSeconds: 601, retryDelaysSeconds: [0] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join("."))).toEqual([
      "ackTimeoutSeconds",
      "retryDelaysSeconds.0",
    ]);
  });
});

describe("SendAwvEmailRequestSchema", () => {
  test("reads flags sent as form strings", () => {
    const parsed = SendAwvEmailRequestSchema.parse({
      ptEmail: "p@x.test",
      tenant: "demo",
      ptId: id,
      ptS: "true",
      ptPY: "false",
      pt100: true,
    });
    expect([parsed.ptS, parsed.ptPY, parsed.pt100]).toEqual([true, false, true]);
  });
});
