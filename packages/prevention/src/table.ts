import type {
  AdviceArea,
  HistoryKey,
  Measure,
  Offer,
  RiskFlag,
  RowKind,
  SmokingStatus,
  Topic,
  VaccineKey,
} from "./vocabulary.js";

/** The public source of a row: who published it, where, and which version the row follows. */
export interface RuleSource {
  /** Publisher: "USPSTF", "ACIP / CDC", "CMS", ... */
  name: string;
  title: string;
  url: string;
  /** The version followed: "Final recommendation statement, 2021-03-09". */
  version: string;
  /** USPSTF grade (A, B, C, D, I), when the source grades. */
  grade?: string;
}

/** A range of a number: at least `atLeast`, below `below` (either may be absent). */
export interface NumberRange {
  atLeast?: number;
  below?: number;
}

/**
 * Who a row applies to. Every criterion given must hold; `anyOf` holds when one of its criteria does.
 * A criterion whose fact is unknown is neither true nor false, and the plan asks for the fact.
 */
export interface Criteria {
  /** Whole years of age, both ends included ("50 to 80"). */
  age?: { from?: number; to?: number };
  sex?: "female" | "male";
  smoking?: SmokingStatus[];
  /** Smoked at least 100 cigarettes in a lifetime (the USPSTF "ever smoked"). */
  everSmoked?: boolean;
  packYears?: NumberRange;
  /** Years since quitting; someone who smokes now counts 0. */
  yearsSinceQuit?: NumberRange;
  flagsAll?: RiskFlag[];
  flagsAny?: RiskFlag[];
  flagsNone?: RiskFlag[];
  measures?: Partial<Record<Measure, NumberRange>>;
  anyOf?: Criteria[];
}

/** An interval between two tests: whole years, months, CMS full months, or once in a lifetime. */
export type Interval = { years: number } | { months: number } | { fullMonths: number } | "once";

/** A test or assessment whose last date satisfies a row, and how often it is repeated. */
export interface RuleTest {
  record: HistoryKey;
  /** Its name in the reason: "colonoscopy". */
  name: string;
  every: Interval;
  /** Medicare's coverage interval for the same test, where it differs or is worth showing. */
  medicareEvery?: Interval;
}

/** A further dose after the products on record are exactly `after`. */
export interface VaccineStep {
  after: string[];
  give: string;
  afterMonths: number;
  /** "individual" for a dose ACIP leaves to shared clinical decision-making. */
  offer?: "routine" | "individual";
}

/** How a vaccine row reads the vaccine's history. */
export type VaccineRule =
  | {
      record: VaccineKey;
      schedule: "season";
      give: string;
      /** The month a season's doses start to count (July for influenza). */
      seasonStartMonth: number;
      /** The month from which the plan offers the season's dose (September). */
      offerFromMonth: number;
    }
  | {
      record: VaccineKey;
      schedule: "doses";
      give: string;
      /** Doses in the series when the products are not recorded; 1 makes any dose on record complete. */
      doses?: number;
      /** Product sets any of which, present among the doses on record, completes the series. */
      complete: string[][];
      next: VaccineStep[];
    }
  | {
      record: VaccineKey;
      schedule: "booster";
      give: string;
      everyYears: number;
      /** The product one dose of which must be on record first ("Tdap"). */
      first?: string;
    };

/** Medicare's coverage of the service, shown beside the recommendation. */
export interface MedicareCoverage {
  coverage: string;
  source: RuleSource;
}

/** One recommendation. */
export interface RuleRow {
  /** Stable identifier, kebab-case. */
  id: string;
  topic: Topic;
  /** Rows of one group are alternatives: the first that applies wins. Defaults to the topic. */
  group?: string;
  kind: RowKind;
  /** The clinician's title. */
  title: string;
  offer: Offer;
  population: Criteria;
  /** Tests that satisfy the row (screenings, assessments). */
  tests?: RuleTest[];
  vaccine?: VaccineRule;
  /** For a row with neither tests nor vaccine (counselling): offered again after this interval. */
  repeat?: Interval;
  /** The recommendation in the clinician's words. */
  recommendation: string;
  medicare?: MedicareCoverage;
  source: RuleSource;
  /** Plain-language text for the patient. */
  patient: { en: string; es: string };
  note?: string;
}

/** A risk factor the plan lists when its trigger holds, with interventions and the patient's advice. */
export interface RiskFactorRow {
  id: string;
  area: AdviceArea;
  title: string;
  trigger: Criteria;
  /** Interventions recommended, in the clinician's words. */
  interventions: string[];
  /**
   * Advice for the patient. `{measure}` (for example `{bmi}`) is replaced by the patient's value; a
   * sentence whose value is unknown is left out.
   */
  advice: { en: string; es: string };
  source: RuleSource;
}

/** The versioned table. */
export interface RulesTable {
  name: string;
  version: string;
  published: string;
  /** The versions of the sources followed, in words. */
  basis: string;
  rows: RuleRow[];
  riskFactors: RiskFactorRow[];
}
