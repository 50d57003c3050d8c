import { MESSAGES } from "../messages.js";
import type { Condition, Question, Survey } from "../types.js";
import { choices, fieldChoices, page, question, when, withTranslation } from "./build.js";
import { TELE_AWV_ES } from "./tele-awv.es.js";

/** Fixed id of the Tele-AWV wellness questionnaire. */
export const TELE_AWV_SURVEY_ID = "64a1c0de0000000000000001";

const KEY = "tele-awv";

/**
 * The hidden fields of the questionnaire, in the order the e-mailed link carries them (SPEC 2). The runner
 * stores them at the top level of the answers as strings; the three flags are 'true' or 'false'.
 */
export const TELE_AWV_HIDDEN_FIELDS = ["tenant", "patientId", "ptEmail", "ptS", "ptPY", "pt100"] as const;

/**
 * Tenants that use the STEADI falls question set instead of the default falls questions (SPEC 4, 9); a
 * seed sets `settings.alternateFalls` for them, and the questionnaire reads only that setting.
 */
export const ALTERNATE_FALLS_TENANT_IDS: readonly string[] = [
  "sc-duncan-corecarefp",
  "tx-plano-btpa",
  "localhost",
];

/** The six hidden fields of a questionnaire link. */
export type TeleAwvParams = Record<(typeof TELE_AWV_HIDDEN_FIELDS)[number], string>;

const TRUE_FLAGS = new Set(["true", "1", "yes", "y", "on"]);

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * Reads a questionnaire link's query string (with or without the leading '?'). Only exactly six
 * `name=value` pairs fill the hidden fields, taken in order: tenant, patient id, patient e-mail, then the
 * smoking-status, pack-years and 100-cigarettes flags (each 'true' or 'false'). Otherwise null.
 */
export function parseTeleAwvQuery(search: string): TeleAwvParams | null {
  const query = search.startsWith("?") ? search.slice(1) : search;
  const pairs = query === "" ? [] : query.split("&");
  if (pairs.length !== TELE_AWV_HIDDEN_FIELDS.length) return null;
  const values = pairs.map((pair) => {
    const equals = pair.indexOf("=");
    return equals === -1 ? "" : decode(pair.slice(equals + 1));
  });
  const [tenant, patientId, ptEmail, ptS, ptPY, pt100] = values as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const flag = (value: string): string => (TRUE_FLAGS.has(value.trim().toLowerCase()) ? "true" : "false");
  return { tenant, patientId, ptEmail, ptS: flag(ptS), ptPY: flag(ptPY), pt100: flag(pt100) };
}

/** Section ids of the questionnaire, in the spec's order. */
export const TELE_AWV_SECTIONS = [
  { id: "functional", title: "Daily function" },
  { id: "pain", title: "Pain" },
  { id: "hearing", title: "Hearing" },
  { id: "social", title: "Habits and social history" },
  { id: "depression", title: "Depression screen" },
  { id: "fallRisk", title: "Fall risk" },
  { id: "fallen", title: "Falls and balance" },
  { id: "directives", title: "Medical documents" },
] as const;

const YES_NO = choices([
  ["yes", "Yes"],
  ["no", "No"],
]);

const q = (
  type: Question["type"],
  fieldName: string,
  title: string,
  options: Partial<Question> = {},
): Question => question(KEY, type, fieldName, title, options);

const required = (
  type: Question["type"],
  fieldName: string,
  title: string,
  options: Partial<Question> = {},
) => q(type, fieldName, title, { required: true, ...options });

const yesNo = (fieldName: string, title: string, options: Partial<Question> = {}): Question =>
  required("yesno", fieldName, title, { choices: YES_NO, ...options });

const FUNCTIONAL_CHOICES = choices([
  ["0", "I can do this myself"],
  ["1", "I sometimes need assistance"],
  ["2", "I need assistance"],
]);

const FUNCTIONAL_ITEMS: ReadonlyArray<readonly [string, string]> = [
  ["eating", "Eating"],
  ["bedToChair", "Getting from bed to chair"],
  ["bathroom", "Getting to the bathroom"],
  ["phone", "Using the telephone"],
  ["driving", "Driving or getting to places beyond walking distance"],
  ["meds", "Taking your medicines"],
  ["money", "Managing your money"],
  ["chores", "Doing housework and chores"],
  ["shopping", "Shopping"],
  ["stairs", "Climbing stairs"],
];

const PAIN_FREQUENCY = choices([
  ["0", "Not at all"],
  ["1", "Some days"],
  ["2", "Most days"],
  ["3", "Every day"],
]);

// The 18 body parts of the pain-location question, stored at pain.locations0 to pain.locations17.
const PAIN_LOCATIONS: ReadonlyArray<readonly [string, string]> = [
  ["head", "Head"],
  ["neck", "Neck"],
  ["jaw", "Jaw or face"],
  ["shoulders", "Shoulders"],
  ["chest", "Chest"],
  ["abdomen", "Stomach or abdomen"],
  ["upperBack", "Upper back"],
  ["lowerBack", "Lower back"],
  ["arms", "Arms"],
  ["elbows", "Elbows"],
  ["wrists", "Wrists"],
  ["hands", "Hands or fingers"],
  ["hips", "Hips"],
  ["legs", "Legs"],
  ["knees", "Knees"],
  ["ankles", "Ankles"],
  ["feet", "Feet or toes"],
  ["other", "Somewhere else"],
];

const HEARING_CHOICES = choices([
  ["yes", "Yes"],
  ["no", "No"],
  ["sometimes", "Sometimes"],
]);

const PHQ_CHOICES = choices([
  ["not at all", "Not at all"],
  ["several days", "Several days"],
  ["more than half the days", "More than half the days"],
  ["nearly every day", "Nearly every day"],
]);

const PHQ_POSITIVE = ["several days", "more than half the days", "nearly every day"];

const DIRECTIVE_CHOICES = choices([
  ["yes", "Yes"],
  ["no", "No"],
  ["unknown", "I Don't Know"],
]);

// 'never' and 'quit' are the spec's values; as SPEC 3 says, any other ('yes', 'quitRecent') counts as
// current smoking for the follow-up questions, matching USPSTF's "smoke now or quit within 15 years".
const SMOKING_STATUS = "social.smokeYesNoQuit";

const smokesOrQuitRecently: Condition[] = [
  when(SMOKING_STATUS, "Has Response"),
  when(SMOKING_STATUS, "Not Equals", "never"),
  when(SMOKING_STATUS, "Not Equals", "quit"),
];

const PHQ_FURTHER: ReadonlyArray<readonly [string, string]> = [
  ["phq9Sleep", "Trouble falling or staying asleep, or sleeping too much"],
  ["phq9Tired", "Feeling tired or having little energy"],
  ["phq9Appetite", "Poor appetite or overeating"],
  [
    "phq9Failure",
    "Feeling bad about yourself, or that you are a failure or have let yourself or your family down",
  ],
  [
    "phq9Concentration",
    "Trouble concentrating on things, such as reading the newspaper or watching television",
  ],
  [
    "phq9Movement",
    "Moving or speaking so slowly that other people could have noticed, or the opposite: being so fidgety or restless that you have been moving around a lot more than usual",
  ],
  ["phq9SelfHarm", "Thoughts that you would be better off dead, or of hurting yourself in some way"],
];

const phqFollowUp: Condition[] = [
  when("depression.phq9LittleInterest", "One Of", PHQ_POSITIVE),
  { ...when("depression.phq9Hopeless", "One Of", PHQ_POSITIVE), joinType: "or" },
];

const alternateFalls = (shown: boolean): Condition[] => [
  when("tenant.settings.alternateFalls", shown ? "Equals" : "Not Equals", true),
];

// CDC STEADI "Stay Independent" checklist; points in scoring.ts.
const STEADI_ITEMS: ReadonlyArray<readonly [string, string]> = [
  ["steadiFallen", "I have fallen in the past year."],
  ["steadiCane", "I use or have been advised to use a cane or walker to get around safely."],
  ["steadiUnsteady", "Sometimes I feel unsteady when I am walking."],
  ["steadiFurniture", "I steady myself by holding onto furniture when walking at home."],
  ["steadiWorried", "I am worried about falling."],
  ["steadiPushUp", "I need to push with my hands to stand up from a chair."],
  ["steadiCurb", "I have some trouble stepping up onto a curb."],
  ["steadiToilet", "I often have to rush to the toilet."],
  ["steadiFeet", "I have lost some feeling in my feet."],
  ["steadiMedsDizzy", "I take medicine that sometimes makes me feel light-headed or more tired than usual."],
  ["steadiMedsMood", "I take medicine to help me sleep or improve my mood."],
  ["steadiSad", "I often feel sad or depressed."],
];

/**
 * The Medicare Annual Wellness Visit questionnaire a patient completes from the e-mailed link (SPEC 2-5, 9).
 * One page per section, in the spec's order. Follow-up questions carry `visibleWhen` conditions and are
 * hidden until they hold. The conditions read the hidden fields `ptS`, `ptPY` and `pt100` ('true' or
 * 'false', see `parseTeleAwvQuery`) and the tenant setting `tenant.settings.alternateFalls` (true for
 * tenants that use the STEADI question set instead of the default falls questions).
 */
export const teleAwvSurvey: Survey = withTranslation(
  {
    id: TELE_AWV_SURVEY_ID,
    title: "Annual Wellness Visit",
    description:
      "Please answer these questions before your Annual Wellness Visit. Your answers go to your care team.",
    canSubscribeTo: false,
    version: 1,
    submitLabel: "Submit AWV",
    sections: TELE_AWV_SECTIONS.map((section) => ({ ...section })),
    pages: [
      page(
        KEY,
        "functional",
        "Daily function",
        [
          q("html", "functional.intro", "Do you need help with any of these activities?"),
          ...FUNCTIONAL_ITEMS.map(([name, title]) =>
            required("radio", `functional.${name}`, title, {
              choices:
                name === "driving"
                  ? [...FUNCTIONAL_CHOICES, { value: "3", label: "I do not drive" }]
                  : FUNCTIONAL_CHOICES,
            }),
          ),
        ],
        { section: "functional" },
      ),
      page(
        KEY,
        "pain",
        "Pain",
        [
          required("radio", "pain.hadPain", "In the last 3 months, how often have you had pain?", {
            choices: PAIN_FREQUENCY,
          }),
          required(
            "radio",
            "pain.activities",
            "In the last 3 months, how often has pain kept you from your usual activities?",
            {
              choices: PAIN_FREQUENCY,
            },
          ),
          required("checkbox", "pain.locations", "Where do you hurt? Check all that apply.", {
            choices: fieldChoices("pain.locations", PAIN_LOCATIONS),
            requiredMessage: MESSAGES.painLocationRequired,
            visibleWhen: [when("pain.hadPain", "Greater Than", "0")],
          }),
        ],
        { section: "pain" },
      ),
      page(
        KEY,
        "hearing",
        "Hearing",
        [
          required("radio", "hearing.aid", "Do you wear a hearing aid?", { choices: HEARING_CHOICES }),
          required(
            "radio",
            "hearing.restaurant",
            "Do you have trouble hearing in a restaurant or a crowded room?",
            {
              choices: HEARING_CHOICES,
            },
          ),
          required("radio", "hearing.mumbling", "Do people seem to mumble when they talk to you?", {
            choices: HEARING_CHOICES,
          }),
          required("radio", "hearing.repeat", "Do you often ask people to repeat themselves?", {
            choices: HEARING_CHOICES,
          }),
          required("radio", "hearing.phone", "Do you have trouble hearing on the telephone?", {
            choices: HEARING_CHOICES,
          }),
          required("radio", "hearing.ringing", "Do you hear ringing or other noises in your ears?", {
            choices: HEARING_CHOICES,
          }),
        ],
        { section: "hearing" },
      ),
      page(
        KEY,
        "social",
        "Habits and social history",
        [
          required("radio", "social.alcoholfrequency", "How often do you have a drink containing alcohol?", {
            choices: choices([
              ["never", "Never"],
              ["monthly", "Monthly or less"],
              ["2-4month", "2 to 4 times a month"],
              ["2-3week", "2 to 3 times a week"],
              ["4week", "4 or more times a week"],
            ]),
          }),
          q(
            "radio",
            "social.drinksPerDay",
            "How many drinks containing alcohol do you have on a typical day when you drink?",
            {
              choices: choices([
                ["1", "1 or 2"],
                ["3", "3 or 4"],
                ["5", "5 or 6"],
                ["7", "7 to 9"],
                ["10", "10 or more"],
              ]),
              visibleWhen: [
                when("social.alcoholfrequency", "Has Response"),
                when("social.alcoholfrequency", "Not Equals", "never"),
              ],
            },
          ),
          q("radio", "social.sixDrinks", "How often do you have six or more drinks on one occasion?", {
            choices: choices([
              ["never", "Never"],
              ["lessMonthly", "Less than monthly"],
              ["monthly", "Monthly"],
              ["weekly", "Weekly"],
              ["daily", "Daily or almost daily"],
            ]),
            visibleWhen: [
              when("social.alcoholfrequency", "Has Response"),
              when("social.alcoholfrequency", "Not Equals", "never"),
            ],
          }),
          // SPEC 2, 4: the link's smoking-status flag (ptS) shows the question; without it the question and
          // every follow-up that reads its answer stay hidden, and so are never required.
          required("radio", SMOKING_STATUS, "Do you smoke cigarettes, cigars or a pipe?", {
            visibleWhen: [when("ptS", "Equals", "true")],
            choices: choices([
              ["yes", "Yes, I smoke now"],
              ["quitRecent", "I quit within the last 15 years"],
              ["quit", "I quit more than 15 years ago"],
              ["never", "I have never smoked"],
            ]),
          }),
          yesNo(
            "social.packYears",
            "Have you smoked for 30 pack-years or more? (One pack a day for 30 years, or two packs a day for 15 years.)",
            { visibleWhen: [...smokesOrQuitRecently, when("ptPY", "Equals", "true")] },
          ),
          yesNo("social.smoke100", "Have you smoked at least 100 cigarettes in your entire life?", {
            required: false,
            visibleWhen: [
              when("social.packYears", "Not Equals", "yes"),
              when("ptS", "Equals", "true"),
              when(SMOKING_STATUS, "Has Response"),
              when(SMOKING_STATUS, "Not Equals", "never"),
              when("pt100", "Equals", "true"),
            ],
          }),
          yesNo(
            "social.lungCancer",
            "Have you had a low-dose CT scan to screen for lung cancer in the last 12 months?",
            {
              required: false,
              visibleWhen: [...smokesOrQuitRecently, when("social.packYears", "Equals", "yes")],
            },
          ),
          yesNo("social.smokeless", "Do you use smokeless tobacco, such as chewing tobacco or snuff?"),
          required(
            "radio",
            "social.oralHealth",
            "How would you describe the health of your mouth and teeth?",
            {
              choices: choices([
                ["excellent", "Excellent"],
                ["good", "Good"],
                ["fair", "Fair"],
                ["poor", "Poor"],
              ]),
            },
          ),
          yesNo("social.dentist", "Have you seen a dentist in the last 12 months?"),
          required("checkbox", "social.diets", "Which diets do you follow? Check all that apply.", {
            choices: fieldChoices("social.diets", [
              ["none", "I don't follow a diet"],
              ["lowSalt", "Low salt"],
              ["lowFat", "Low fat or low cholesterol"],
              ["diabetic", "Diabetic or low sugar"],
              ["vegetarian", "Vegetarian or vegan"],
              ["lowCarb", "Low carbohydrate"],
              ["glutenFree", "Gluten free"],
              ["other", "Another diet"],
            ]),
            noneValue: "none",
            requiredMessage: MESSAGES.dietRequired,
          }),
          yesNo("social.exerciseYesNo", "Do you exercise regularly?"),
          q("radio", "social.exerciseFrequency", "How much do you exercise?", {
            choices: choices([
              ["30", "0-30 minutes per day"],
              ["60", "30-60 minutes per day"],
              ["1", "Less than 1 hour per week"],
              ["2", "1-2 hours per week"],
              ["4", "3-4 hours per week"],
            ]),
            visibleWhen: [when("social.exerciseYesNo", "Equals", "yes")],
          }),
          required("radio", "social.maritalStatus", "What is your marital status?", {
            choices: choices([
              ["single", "Single"],
              ["married", "Married"],
              ["partner", "Domestic partner"],
              ["divorced", "Divorced"],
              ["widowed", "Widowed"],
              ["other", "Other"],
            ]),
          }),
          required("checkbox", "social.householdMembers", "Who lives with you? Check all that apply.", {
            choices: fieldChoices("social.householdMembers", [
              ["alone", "I live alone"],
              ["spouse", "Spouse or partner"],
              ["children", "Children"],
              ["grandchildren", "Grandchildren"],
              ["parents", "Parents"],
              ["siblings", "Brothers or sisters"],
              ["friends", "Friends or roommates"],
              ["caregiver", "A paid caregiver"],
            ]),
            noneValue: "alone",
            requiredMessage: MESSAGES.householdRequired,
          }),
          required("radio", "social.occupation", "What is your occupation?", {
            choices: choices([
              ["retired", "Retired"],
              ["unemployed", "Unemployed"],
              ["employed", "Currently employed"],
              ["disabled", "Disabled"],
            ]),
          }),
          required("radio", "social.generalHealth", "In general, how would you rate your health?", {
            choices: choices([
              ["excellent", "Excellent"],
              ["veryGood", "Very good"],
              ["good", "Good"],
              ["fair", "Fair"],
              ["poor", "Poor"],
            ]),
          }),
          q("radio", "social.energy", "In the last 4 weeks, how much energy have you had?", {
            choices: choices([
              ["veryMuch", "Very much"],
              ["quiteALot", "Quite a lot"],
              ["some", "Some"],
              ["little", "A little"],
              ["none", "None"],
            ]),
          }),
          yesNo("social.sexualHealth", "Do you have any concerns about your sexual health?"),
          required("radio", "social.stress", "How often do you feel stressed?", {
            choices: choices([
              ["never", "Never"],
              ["sometimes", "Sometimes"],
              ["often", "Often"],
              ["always", "Always"],
            ]),
          }),
          required("radio", "social.seatbelt", "Do you wear a seat belt when you ride in a car?", {
            choices: choices([
              ["always", "Always"],
              ["sometimes", "Sometimes"],
              ["never", "Never"],
            ]),
          }),
          yesNo("social.smokeDetectors", "Does your home have working smoke detectors?"),
          yesNo(
            "social.tripHazards",
            "Does your home have throw rugs, clutter or poor lighting that could make you trip?",
          ),
          yesNo(
            "social.grabBars",
            "Does your bathroom have grab bars in the shower or tub and by the toilet?",
          ),
          yesNo("social.feelSafe", "Do you feel safe in your home?"),
        ],
        { section: "social" },
      ),
      page(
        KEY,
        "depression",
        "Depression screen",
        [
          q(
            "html",
            "depression.intro",
            "Over the last 2 weeks, how often have you been bothered by any of the following problems?",
          ),
          required("radio", "depression.phq9LittleInterest", "Little interest or pleasure in doing things", {
            choices: PHQ_CHOICES,
          }),
          required("radio", "depression.phq9Hopeless", "Feeling down, depressed, or hopeless", {
            choices: PHQ_CHOICES,
          }),
          ...PHQ_FURTHER.map(([name, title]) =>
            q("radio", `depression.${name}`, title, { choices: PHQ_CHOICES, visibleWhen: phqFollowUp }),
          ),
          q(
            "radio",
            "depression.difficulty",
            "How difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?",
            {
              choices: choices([
                ["notDifficult", "Not difficult at all"],
                ["somewhat", "Somewhat difficult"],
                ["very", "Very difficult"],
                ["extremely", "Extremely difficult"],
              ]),
              visibleWhen: phqFollowUp,
            },
          ),
        ],
        { section: "depression" },
      ),
      page(
        KEY,
        "fallRisk",
        "Fall risk",
        [
          yesNo("fallen.pastYear", "Have you fallen in the past year?", {
            visibleWhen: alternateFalls(false),
          }),
          yesNo("fallen.loseBalanceWhileStanding", "Do you lose your balance while standing?", {
            visibleWhen: alternateFalls(false),
          }),
          yesNo("fallen.dizzy", "Do you feel dizzy or light-headed when you stand up?", {
            visibleWhen: alternateFalls(false),
          }),
          yesNo("fallen.useCane", "Do you use a cane, walker or other device to get around?", {
            visibleWhen: alternateFalls(false),
          }),
          yesNo("fallen.unsteady", "Do you feel unsteady when you walk?", {
            visibleWhen: alternateFalls(false),
          }),
          q("html", "fallRisk.intro", "Please answer yes or no to each statement.", {
            visibleWhen: alternateFalls(true),
          }),
          ...STEADI_ITEMS.map(([name, title]) =>
            yesNo(`fallRisk.${name}`, title, { visibleWhen: alternateFalls(true) }),
          ),
        ],
        { section: "fallRisk" },
      ),
      page(
        KEY,
        "fallen",
        "Falls and balance",
        [
          yesNo("fallen.recentVisionLoss", "Have you recently lost some of your vision or hearing?"),
          yesNo(
            "fallen.stroke",
            "Have you had a stroke, an accident or another health problem that affects your balance?",
          ),
        ],
        { section: "fallen" },
      ),
      page(
        KEY,
        "directives",
        "Medical documents",
        [
          required("radio", "directives.livingWill", "Do you have a living will?", {
            choices: DIRECTIVE_CHOICES,
          }),
          required("radio", "directives.poa", "Do you have a health care power of attorney?", {
            choices: DIRECTIVE_CHOICES,
          }),
          required("radio", "directives.dnr", "Do you have a Do Not Resuscitate (DNR) order?", {
            choices: DIRECTIVE_CHOICES,
          }),
        ],
        { section: "directives" },
      ),
    ],
  },
  "es",
  TELE_AWV_ES,
);
