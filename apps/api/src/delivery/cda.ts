import { answerItems, phqScores, readAnswer, type AnswerItem } from "./answers.js";
import { codeAnswer, DIRECTIVE_FIELDS, PHQ9_ITEMS, SMOKING_STATUS_FIELD } from "./coding.js";
import {
  ADMINISTRATIVE_GENDER,
  CDA_TYPE_ID,
  CODE_SYSTEM_OID,
  CONFIDENTIALITY_NORMAL,
  DOCUMENT_CODE,
  TEMPLATE,
  type TemplateId,
} from "./codes/cda.js";
import { LOINC, LOINC_OID, type Coding } from "./codes/loinc.js";
import { CDC_RACE_OID, ethnicityCode, raceCode, UNKNOWN } from "./codes/race-ethnicity.js";
import { SNOMED_OID } from "./codes/snomed.js";
import { mrnAuthority } from "./authority.js";
import { cdaDocumentId, nameUuid } from "./ids.js";
import { hl7Date, hl7Timestamp } from "./time.js";
import type { DeliveryAddress, DeliveryDocumentInput } from "./types.js";
import { el, serialise, type XmlElement, type XmlNode } from "./xml.js";

const templateId = (t: TemplateId) => el("templateId", { root: t.root, extension: t.extension });
const loincCode = (c: Coding, tag = "code") =>
  el(tag, { code: c.code, displayName: c.display, codeSystem: LOINC_OID, codeSystemName: "LOINC" });

function table(headers: string[], rows: { id?: string; cells: string[] }[]) {
  return el(
    "table",
    { border: 1, width: "100%" },
    el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows.map((r) => el("tr", { ID: r.id }, ...r.cells.map((c) => el("td", {}, c))))),
  );
}

const answerRow = (item: AnswerItem, id?: string) => ({ id, cells: [item.title, item.display.join("; ")] });

function section(
  template: TemplateId | undefined,
  code: Coding | undefined,
  title: string,
  text: XmlElement,
  entries: XmlNode[] = [],
) {
  return el(
    "component",
    {},
    el(
      "section",
      {},
      template && templateId(template),
      code && loincCode(code),
      el("title", {}, title),
      el("text", {}, text),
      entries,
    ),
  );
}

/** A US Realm Address (C-CDA 2.1 §1.1.1.1), or a null flavor when nothing of it is known. */
function address(addr: DeliveryAddress | undefined, use: string) {
  const parts = [addr?.street, addr?.city, addr?.state, addr?.zip].filter((p) => p !== undefined && p !== "");
  if (addr === undefined || parts.length === 0) return el("addr", { nullFlavor: "UNK" });
  const part = (name: string, value: string | undefined) =>
    value !== undefined && value !== "" ? el(name, {}, value) : el(name, { nullFlavor: "UNK" });
  return el(
    "addr",
    { use },
    part("streetAddressLine", addr.street),
    part("city", addr.city),
    part("state", addr.state),
    part("postalCode", addr.zip),
    el("country", {}, "US"),
  );
}

const telecom = (phone: string | undefined, use: string) =>
  el("telecom", phone ? { use, value: `tel:${phone.replace(/[^0-9+]/g, "")}` } : { nullFlavor: "UNK" });

const cdcCode = (tag: string, code: { code: string; display: string } | undefined) =>
  code === undefined
    ? el(tag, { nullFlavor: UNKNOWN.code })
    : el(tag, {
        code: code.code,
        displayName: code.display,
        codeSystem: CDC_RACE_OID,
        codeSystemName: "CDC Race and Ethnicity",
      });

interface Context {
  input: DeliveryDocumentInput;
  items: AnswerItem[];
  observed: string;
  id: (part: string) => string;
}

function functionalStatusSection({ items }: Context) {
  const rows = items.filter((i) => i.fieldName.startsWith("functional.")).map((i) => answerRow(i));
  if (rows.length === 0) return undefined;
  return section(
    TEMPLATE.functionalStatusSection,
    LOINC.functionalStatusSection,
    "Functional Status",
    table(["Activity", "Answer"], rows),
  );
}

function mentalStatusSection({ input, items, observed, id }: Context) {
  const byField = new Map(items.map((i) => [i.fieldName, i]));
  const answered = PHQ9_ITEMS.map((item, n) => {
    const field = item.fields.find((f) => byField.has(f));
    return field === undefined ? undefined : { n: n + 1, coding: item.coding, item: byField.get(field)! };
  }).filter((x) => x !== undefined);
  if (answered.length === 0) return undefined;
  const scores = phqScores(input.result.answers);
  const total = scores.phq9 ?? scores.phq2;
  const totalCode = scores.phq9 !== undefined ? LOINC.phq9Total : LOINC.phq2Total;
  const panelCode = scores.phq9 !== undefined ? LOINC.phq9Panel : LOINC.phq2Panel;

  const rows = answered.map((a) => ({
    id: `phq${a.n}`,
    cells: [a.item.title, a.item.display.join("; "), a.item.values[0]?.coded?.score?.toString() ?? ""],
  }));
  if (total !== undefined) rows.push({ id: "phqTotal", cells: [totalCode.display, String(total), ""] });

  const supporting = (code: Coding, ref: string, values: (XmlNode | false | undefined)[]) =>
    el(
      "entryRelationship",
      { typeCode: "COMP" },
      el(
        "observation",
        { classCode: "OBS", moodCode: "EVN" },
        templateId(TEMPLATE.assessmentScaleSupportingObservation),
        el("id", { root: id(`phq-${ref}`) }),
        loincCode(code),
        el("text", {}, el("reference", { value: `#${ref}` })),
        el("statusCode", { code: "completed" }),
        el("effectiveTime", { value: observed }),
        values,
      ),
    );
  const entry =
    total === undefined
      ? undefined
      : el(
          "entry",
          { typeCode: "DRIV" },
          el(
            "observation",
            { classCode: "OBS", moodCode: "EVN" },
            templateId(TEMPLATE.assessmentScaleObservation),
            el("id", { root: id("phq-panel") }),
            loincCode(panelCode),
            el("statusCode", { code: "completed" }),
            el("effectiveTime", { value: observed }),
            el("value", { "xsi:type": "INT", value: total }),
            supporting(totalCode, "phqTotal", [el("value", { "xsi:type": "INT", value: total })]),
            answered.map((a) => {
              const coded = a.item.values[0]?.coded;
              return supporting(a.coding, `phq${a.n}`, [
                coded?.score !== undefined && el("value", { "xsi:type": "INT", value: coded.score }),
                coded &&
                  el("value", {
                    "xsi:type": "CO",
                    code: coded.code,
                    displayName: coded.display,
                    codeSystem: LOINC_OID,
                  }),
              ]);
            }),
          ),
        );
  return section(
    TEMPLATE.mentalStatusSection,
    LOINC.mentalStatusSection,
    "Mental Status",
    table(["Assessment", "Answer", "Points"], rows),
    entry ? [entry] : [],
  );
}

function socialHistorySection({ input, items, observed, id }: Context) {
  const rows = items
    .filter((i) => i.fieldName.startsWith("social.") || i.fieldName.startsWith("alcohol."))
    .map((i) => answerRow(i, i.fieldName === SMOKING_STATUS_FIELD ? "smokingStatus" : undefined));
  if (rows.length === 0) return undefined;
  const smoking = codeAnswer(SMOKING_STATUS_FIELD, readAnswer(input.result.answers, SMOKING_STATUS_FIELD));
  const entry =
    smoking &&
    el(
      "entry",
      {},
      el(
        "observation",
        { classCode: "OBS", moodCode: "EVN" },
        templateId(TEMPLATE.smokingStatusObservation),
        el("id", { root: id("smoking-status") }),
        loincCode(LOINC.smokingStatus),
        el("text", {}, el("reference", { value: "#smokingStatus" })),
        el("statusCode", { code: "completed" }),
        el("effectiveTime", { value: observed }),
        el("value", {
          "xsi:type": "CD",
          code: smoking.code,
          displayName: smoking.display,
          codeSystem: SNOMED_OID,
          codeSystemName: "SNOMED CT",
        }),
      ),
    );
  return section(
    TEMPLATE.socialHistorySection,
    LOINC.socialHistorySection,
    "Social History",
    table(["Question", "Answer"], rows),
    entry ? [entry] : [],
  );
}

function advanceDirectivesSection({ items }: Context) {
  const fields: readonly string[] = DIRECTIVE_FIELDS;
  const rows = items.filter((i) => fields.includes(i.fieldName)).map((i) => answerRow(i));
  if (rows.length === 0) return undefined;
  return section(
    TEMPLATE.advanceDirectivesSection,
    LOINC.advanceDirectivesSection,
    "Advance Directives",
    table(["Document", "Answer"], rows),
  );
}

function answersSection({ input, items }: Context) {
  const rows = items.map((i, n) => answerRow(i, `answer${n + 1}`));
  return section(
    undefined,
    undefined,
    `${input.survey.title} (version ${input.survey.version}): all answers`,
    rows.length > 0 ? table(["Question", "Answer"], rows) : el("paragraph", {}, "No answers were recorded."),
  );
}

/**
 * Builds a CDA R2 document (C-CDA 2.1 US Realm Header) for a survey result: functional status,
 * mental status (PHQ items and total), social history (smoking status) and advance directives
 * sections where the survey has such answers, and a narrative table of every answer.
 */
export function buildCda(input: DeliveryDocumentInput): string {
  const { patient, tenant, parties, result } = input;
  const ctx: Context = {
    input,
    items: answerItems(input.survey, result.answers),
    observed: hl7Timestamp(result.submittedAt),
    id: (part) => nameUuid(`${input.controlId}:${part}`),
  };
  const created = hl7Timestamp(input.createdAt);
  const gender = ADMINISTRATIVE_GENDER[patient.sex];
  const orgId = { root: nameUuid(`tenant:${tenant.id}`) };
  // One authority per MRN, the same as HL7 PID-3.4 and the FHIR identifier name (authority.ts).
  const authority = mrnAuthority(input);
  const addr = patient.address;
  const race = patient.race === undefined ? undefined : raceCode(patient.race);

  const doc = el(
    "ClinicalDocument",
    {
      xmlns: "urn:hl7-org:v3",
      "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
      "xmlns:sdtc": "urn:hl7-org:sdtc",
    },
    el("realmCode", { code: "US" }),
    el("typeId", { root: CDA_TYPE_ID.root, extension: CDA_TYPE_ID.extension }),
    templateId(TEMPLATE.usRealmHeader),
    el("id", { root: cdaDocumentId(input) }),
    loincCode(DOCUMENT_CODE),
    el("title", {}, input.survey.title),
    el("effectiveTime", { value: created }),
    el("confidentialityCode", {
      code: CONFIDENTIALITY_NORMAL.code,
      displayName: CONFIDENTIALITY_NORMAL.display,
      codeSystem: CODE_SYSTEM_OID.confidentiality,
    }),
    el("languageCode", { code: "en-US" }),
    el("setId", { root: nameUuid(`result:${tenant.id}:${result.id}`) }),
    el("versionNumber", { value: 1 }),
    el(
      "recordTarget",
      {},
      el(
        "patientRole",
        {},
        el("id", {
          root: authority.universalId,
          extension: patient.mrn || patient.id,
          assigningAuthorityName: authority.name,
        }),
        address(addr, "HP"),
        telecom(patient.phone, "HP"),
        el(
          "patient",
          {},
          el("name", { use: "L" }, el("given", {}, patient.firstName), el("family", {}, patient.lastName)),
          el("administrativeGenderCode", {
            code: gender.code,
            displayName: gender.display,
            codeSystem: CODE_SYSTEM_OID.administrativeGender,
          }),
          el("birthTime", { value: hl7Date(patient.dob) }),
          // US Realm Header: race and ethnicity are required, with a null flavor when unknown.
          cdcCode("raceCode", race?.omb),
          race?.detailed && cdcCode("sdtc:raceCode", race.detailed),
          cdcCode("ethnicGroupCode", ethnicityCode(patient.ethnicity)),
        ),
      ),
    ),
    el(
      "author",
      {},
      el("time", { value: created }),
      el(
        "assignedAuthor",
        {},
        el("id", { root: orgId.root, extension: parties.sendingApplication }),
        address(tenant.address, "WP"),
        telecom(tenant.phone, "WP"),
        el(
          "assignedAuthoringDevice",
          {},
          el("manufacturerModelName", {}, "Core Care"),
          el("softwareName", {}, parties.sendingApplication),
        ),
        el(
          "representedOrganization",
          {},
          el("id", orgId),
          el("name", {}, tenant.name),
          telecom(tenant.phone, "WP"),
          address(tenant.address, "WP"),
        ),
      ),
    ),
    el(
      "custodian",
      {},
      el(
        "assignedCustodian",
        {},
        el(
          "representedCustodianOrganization",
          {},
          el("id", orgId),
          el("name", {}, tenant.name),
          telecom(tenant.phone, "WP"),
          address(tenant.address, "WP"),
        ),
      ),
    ),
    el(
      "component",
      {},
      el(
        "structuredBody",
        {},
        functionalStatusSection(ctx),
        mentalStatusSection(ctx),
        socialHistorySection(ctx),
        advanceDirectivesSection(ctx),
        answersSection(ctx),
      ),
    ),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${serialise(doc)}\n`;
}
