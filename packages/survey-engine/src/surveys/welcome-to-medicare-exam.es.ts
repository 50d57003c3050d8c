import type { SurveyTranslation } from "./build.js";

/** The Welcome to Medicare Exam in Spanish (usted form, plain words). */
export const WELCOME_TO_MEDICARE_EXAM_ES: SurveyTranslation = {
  title: "Examen de Bienvenida a Medicare",
  description:
    "Por favor, complete estos antecedentes antes de su visita preventiva de Bienvenida a Medicare.",
  sections: {
    history: "Sus antecedentes",
    screening: "Pruebas de detección",
    planning: "Planes para el futuro",
  },
  pages: {
    "Medical history": "Antecedentes médicos",
    "Hospital stays": "Estancias en el hospital",
    "Family history": "Antecedentes familiares",
    "Vision and hearing": "Vista y audición",
    "Advance care planning": "Planificación anticipada de la atención",
  },
  choices: {
    Yes: "Sí",
    No: "No",
    "None of these": "Ninguna de estas",
    "High blood pressure": "Presión arterial alta",
    Diabetes: "Diabetes",
    "Heart disease": "Enfermedad del corazón",
    "COPD or asthma": "EPOC o asma",
    Cancer: "Cáncer",
    Depression: "Depresión",
    "Some trouble": "Algo de dificultad",
    "A lot of trouble": "Mucha dificultad",
  },
  questions: {
    "history.conditions": { title: "¿Alguna vez le han dicho que tiene alguna de estas enfermedades?" },
    "history.surgeries": { title: "Escriba las cirugías que ha tenido y el año de cada una." },
    "history.hospitalized": {
      title: "¿Ha pasado la noche en un hospital en los últimos 12 meses?",
    },
    "hospital.count": { title: "¿Cuántas veces estuvo en el hospital en los últimos 12 meses?" },
    "hospital.reasons": { title: "¿Por qué motivos estuvo en el hospital?" },
    family: {
      title: "¿Su padre, su madre, un hermano o una hermana ha tenido alguna de estas enfermedades?",
    },
    "family.heartDisease": { title: "Enfermedad del corazón antes de los 60 años" },
    "family.diabetes": { title: "Diabetes" },
    "family.cancer": { title: "Cáncer" },
    "family.cancerType": { title: "¿Qué tipo de cáncer?" },
    "screening.vision": { title: "¿Tiene dificultad para ver, incluso con lentes?" },
    "screening.hearing": { title: "¿Tiene dificultad para oír?" },
    "screening.eyeExam": { title: "¿Le han hecho un examen de la vista en los últimos 2 años?" },
    "planning.advanceDirective": {
      title: "¿Tiene un testamento en vida o un poder legal para decisiones de atención médica?",
    },
    "planning.wantsInformation": {
      title: "¿Le gustaría recibir información sobre las instrucciones anticipadas?",
    },
  },
};
