import { objectId, TELE_AWV_SURVEY_ID } from "@core-care/survey-engine";
import { InterfaceSettingsSchema, type InterfaceSettings, type InterfaceType } from "@core-care/schema";
import type { Db } from "../../src/db/index.js";
import { createInterface } from "../../src/services/interfaces.js";
import { createLocation } from "../../src/services/locations.js";
import { createPatient } from "../../src/services/patients.js";
import { saveResult } from "../../src/services/result-saves.js";

/** Tele-AWV answers with PHQ-9 items, smoking status, directives and encoding characters in text. */
export const SAMPLE_AWV_ANSWERS = {
  functional: { eating: "0", bathroom: "1", driving: "3" },
  social: {
    smokeYesNoQuit: "quitRecent",
    drinksPerDay: "3",
    sixDrinks: "lessMonthly",
    alcoholfrequency: "monthly",
  },
  depression: {
    phq9LittleInterest: "several days",
    phq9Hopeless: "several days",
    phq9Sleep: "not at all",
    phq9Tired: "more than half the days",
    phq9Appetite: "not at all",
    phq9Failure: "not at all",
    phq9Concentration: "several days",
    phq9Movement: "not at all",
    phq9SelfHarm: "not at all",
    difficulty: "somewhat",
  },
  directives: { livingWill: "yes", poa: "no", dnr: "unknown" },
  notes: "Lives with daughter | walks ^ daily & uses cane ~ sometimes \\ no",
};

export interface DeliveryFixture {
  patientId: string;
  resultId: string;
  interfaceId: string;
  locationId: string;
}

/** A patient, a submitted Tele-AWV result, a location and an interface of the given type. */
export async function createDeliveryFixture(
  db: Db,
  tenantId: string,
  iface: {
    type: InterfaceType;
    host?: string;
    port: number;
    username?: string;
    secret?: string;
    path?: string;
    /** Delivery settings; the defaults fill what is not given. */
    settings?: Partial<InterfaceSettings>;
    /** SFTP: the server's confirmed host key. */
    hostKeySha256?: string;
  },
  answers: Record<string, unknown> = SAMPLE_AWV_ANSWERS,
): Promise<DeliveryFixture> {
  const patient = await createPatient(db, tenantId, {
    mrn: `MRN-${objectId().slice(-8)}`,
    firstName: "Ana",
    lastName: "O'Brien",
    dob: "1950-04-17",
    sex: "F",
    phone: "555-123-4567",
  });
  const location = await createLocation(db, tenantId, {
    name: "Main Street Clinic",
    code: `M${objectId().slice(-6)}`,
  });
  const created = await createInterface(db, tenantId, {
    name: `${iface.type} receiver`,
    type: iface.type,
    host: iface.host ?? "127.0.0.1",
    port: iface.port,
    username: iface.username,
    path: iface.path,
    secret: iface.secret,
    ...(iface.hostKeySha256 === undefined ? {} : { hostKeySha256: iface.hostKeySha256 }),
    sendingApplication: "CORECARE",
    sendingFacility: "DEMO",
    receivingApplication: "EHR",
    receivingFacility: "DEMOHOSP",
    settings: InterfaceSettingsSchema.parse(iface.settings ?? {}),
  });
  const saved = await saveResult(
    db,
    tenantId,
    {
      clientRequestId: `fixture-${objectId()}`,
      surveyId: TELE_AWV_SURVEY_ID,
      patientId: patient.id,
      isSubmitted: true,
      answers,
    },
    "fixture",
  );
  return { patientId: patient.id, resultId: saved.id, interfaceId: created.id, locationId: location.id };
}
