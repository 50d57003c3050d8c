/**
 * The closed lists the rules table and the facts are written in. A row of the table may only use these
 * names; `checkRulesTable` reports any other.
 */

/** Plan topics. The first 24 are the list the API documents; the rest are further USPSTF topics. */
export const TOPICS = [
  "colorectal-cancer",
  "breast-cancer",
  "cervical-cancer",
  "lung-cancer",
  "osteoporosis",
  "aaa",
  "hepatitis-c",
  "diabetes",
  "hypertension",
  "statin",
  "obesity",
  "falls",
  "depression",
  "alcohol",
  "tobacco",
  "cognition",
  "hearing",
  "influenza",
  "pneumococcal",
  "zoster",
  "td-tdap",
  "rsv",
  "covid-19",
  "advance-care-planning",
  "prostate-cancer",
  "hiv",
  "hepatitis-b",
  "hepatitis-b-vaccine",
  "healthy-diet-activity",
] as const;
export type Topic = (typeof TOPICS)[number];

/**
 * Conditions, risk factors and prior results, as the HRA, the record or the clinician finds them. A flag
 * is either present or absent: absent means "not known to apply".
 */
export const RISK_FLAGS = [
  /** Diagnosed high blood pressure. */
  "hypertension",
  /** Diagnosed dyslipidaemia (high LDL or non-HDL cholesterol, or treated for it). */
  "dyslipidemia",
  /** Diagnosed diabetes (type 1 or 2). */
  "diabetes",
  /** Prediabetes: impaired fasting glucose or glucose tolerance, or HbA1c 5.7-6.4%. */
  "prediabetes",
  /** Known atherosclerotic cardiovascular disease (secondary prevention, outside the USPSTF statin row). */
  "cardiovascular-disease",
  /** Takes a statin now. */
  "on-statin",
  /** Asian American: the USPSTF diabetes row screens from BMI 23 rather than 25. */
  "asian-american",
  /** Personal history of colorectal cancer or adenomas, IBD, or a hereditary syndrome: a specialist's surveillance plan applies. */
  "colorectal-high-risk",
  /** Personal history of breast cancer, a BRCA or similar mutation, or chest radiation young: not average-risk screening. */
  "breast-high-risk",
  /** Hysterectomy with the cervix removed and no history of high-grade precancer or cervical cancer. */
  "cervix-removed",
  /** History of high-grade precancer or cervical cancer, in-utero DES exposure, or immunocompromise. */
  "cervical-high-risk",
  /** Adequate prior screening: 3 negative Pap tests in a row or 2 negative co-tests in 10 years, the latest within 5. */
  "cervical-screening-adequate",
  /** Osteoporosis diagnosed or treated, or a fragility fracture: monitoring, not screening. */
  "osteoporosis",
  /** Increased risk of osteoporotic fracture by a clinical risk assessment tool (for example FRAX). */
  "osteoporosis-risk",
  /** Postmenopausal. */
  "postmenopausal",
  /** A first-degree relative with an abdominal aortic aneurysm. */
  "aaa-family-history",
  /** Increased risk of hepatitis B (ACIP / USPSTF lists: born where prevalence is 2% or more, injection drug use, HIV, dialysis, ...). */
  "hepatitis-b-risk",
  /** Immune to hepatitis B, or a completed hepatitis B vaccine series on record. */
  "hepatitis-b-immune",
  /** Ongoing risk of hepatitis C, such as current injection drug use. */
  "hepatitis-c-risk",
  /** Increased risk of HIV. */
  "hiv-risk",
  /** Increased risk of severe RSV (chronic heart or lung disease, CKD, diabetes with complications, immunocompromise, severe obesity, nursing home). */
  "rsv-risk",
  /** A condition that calls for pneumococcal vaccination before 50 (ACIP risk conditions). */
  "pneumococcal-risk",
  /** A health problem that substantially limits life expectancy or the ability or wish to have curative treatment. */
  "limited-life-expectancy",
  /** Increased risk of falls: STEADI 4 or more, a fall in the past year, or unsteadiness. */
  "falls-risk",
  /** A memory or thinking concern from the patient, an informant or the clinician's observation. */
  "cognitive-concern",
  /** A hearing concern from the HRA (trouble hearing, hearing aids that do not help). */
  "hearing-concern",
  /** A home safety concern: no working smoke detectors, loose rugs, no grab bars, firearms unsecured, ... */
  "home-safety-concern",
  /** An advance directive (health care proxy, living will, POLST) on file. */
  "advance-directive-on-file",
  /** A diet concern from the HRA (few fruits and vegetables, skipped meals, poor appetite). */
  "diet-concern",
] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** Numbers the HRA or the visit measures. */
export const MEASURES = [
  /** Body mass index, kg/m2. */
  "bmi",
  /** PHQ-2 total, 0-6. */
  "phq2",
  /** PHQ-9 total, 0-27. */
  "phq9",
  /** PHQ-9 item 9 (thoughts of self-harm), 0-3. */
  "phq9Item9",
  /** AUDIT-C total, 0-12. */
  "auditC",
  /** CDC STEADI "Stay Independent" total, 0-14. */
  "steadi",
  /** Falls in the past 12 months. */
  "fallsPastYear",
  /** AD8 dementia screening interview total, 0-8. */
  "ad8",
  /** Minutes of moderate physical activity in a usual week. */
  "activityMinutesPerWeek",
  /** 10-year ASCVD risk in percent (Pooled Cohort Equations or PREVENT). */
  "cvdRisk10y",
] as const;
export type Measure = (typeof MEASURES)[number];

/** Screening tests and assessments whose last date the plan reads. */
export const HISTORY_KEYS = [
  "colonoscopy",
  /** A stool test of unknown kind, FIT or high-sensitivity gFOBT: counted as yearly. */
  "stoolTest",
  /** Multitarget stool DNA test (sDNA-FIT). */
  "stoolDna",
  "ctColonography",
  "sigmoidoscopy",
  "mammogram",
  "papTest",
  "hpvTest",
  "coTest",
  "lungCt",
  "boneDensity",
  "aaaUltrasound",
  "hepatitisCTest",
  "hepatitisBTest",
  "hivTest",
  /** Fasting glucose, HbA1c or glucose tolerance test. */
  "diabetesTest",
  "bloodPressure",
  "lipidPanel",
  "psaTest",
  "depressionScreen",
  "alcoholScreen",
  "cognitiveAssessment",
  "hearingAssessment",
  "fallsAssessment",
  "advanceCarePlanning",
] as const;
export type HistoryKey = (typeof HISTORY_KEYS)[number];

/** Vaccines whose history the plan reads. */
export const VACCINE_KEYS = [
  "influenza",
  "pneumococcal",
  "zoster",
  "tdTdap",
  "rsv",
  "covid19",
  "hepatitisB",
] as const;
export type VaccineKey = (typeof VACCINE_KEYS)[number];

/** Smoking status as the HRA records it. */
export const SMOKING_STATUSES = ["current", "former", "never", "unknown"] as const;
export type SmokingStatus = (typeof SMOKING_STATUSES)[number];

/** What a row offers: the strength of the recommendation it encodes. */
export const OFFERS = [
  /** USPSTF A or B, ACIP routine, or a CMS AWV element: offer it. */
  "routine",
  /** USPSTF C or I, ACIP shared clinical decision-making: decide together. */
  "individual",
  /** USPSTF D, or outside the ages the recommendation covers. */
  "not-recommended",
  /** A condition already found or a treatment under way makes the screening moot. */
  "not-applicable",
] as const;
export type Offer = (typeof OFFERS)[number];

/** Kinds of row. */
export const ROW_KINDS = [
  "screening",
  "immunization",
  "counseling",
  "assessment",
  "preventive-medication",
] as const;
export type RowKind = (typeof ROW_KINDS)[number];

/** Areas of the personalised advice CMS asks the AWV to give. */
export const ADVICE_AREAS = [
  "falls",
  "activity",
  "nutrition",
  "tobacco",
  "alcohol",
  "weight",
  "cognition",
  "hearing",
  "home-safety",
  "depression",
] as const;
export type AdviceArea = (typeof ADVICE_AREAS)[number];

/** How a plan item stands. `due` on the wire is derived from it (see `PlanItem`). */
export const ITEM_STATUSES = [
  /** Due now: never done, overdue, or its date is unknown. */
  "due",
  /** Due on a later date. */
  "scheduled",
  /** Decide together (USPSTF C or I, ACIP shared decision): now or on its date. */
  "discuss",
  /** A fact the rule needs is missing or unclear: ask or check the record now. */
  "review",
  /** Done and not repeated (a one-time screening, a completed series). */
  "complete",
  /** Not recommended, or not applicable, with the reason. */
  "not-recommended",
] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
