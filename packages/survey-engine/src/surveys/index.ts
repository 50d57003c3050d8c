import type { Survey } from "../types.js";
import { coreCareWellnessExam } from "./core-care-wellness-exam.js";
import { teleAwvSurvey } from "./tele-awv.js";
import { welcomeToMedicareExam } from "./welcome-to-medicare-exam.js";

/** The surveys every installation starts with. */
export const BUILTIN_SURVEYS: readonly Survey[] = [
  teleAwvSurvey,
  coreCareWellnessExam,
  welcomeToMedicareExam,
];
