import type { PatientLanguage } from "@core-care/schema";

/** What the invitation e-mail says, in the patient's language. */
export interface InvitationMail {
  subject: string;
  text: string;
}

interface MailParts {
  practice: string;
  link: string;
  /** The same link opening in the other language. */
  otherLink: string;
  days: number;
}

/**
 * The Tele-AWV invitation in each patient language: the practice's name, the link, how long it works,
 * and a line in the other language with a link that opens the questionnaire in that language. No
 * patient data: the address is the only thing that says who it is for.
 */
const INVITATIONS: Record<PatientLanguage, (parts: MailParts) => InvitationMail> = {
  en: ({ practice, link, otherLink, days }) => ({
    subject: `Your Annual Wellness Visit questionnaire from ${practice}`,
    text:
      `${practice} asks you to complete your Medicare Annual Wellness Visit questionnaire before your visit. ` +
      `It takes about 15 minutes, and you can stop and come back to it with the same link.\n\n` +
      `Open this link to answer the questions (it works until you send your answers, and for ${days} days):\n` +
      `${link}\n\n` +
      `Para contestar en español, abra este enlace:\n${otherLink}\n\n` +
      `If you did not expect this e-mail, please contact ${practice}.\n`,
  }),
  es: ({ practice, link, otherLink, days }) => ({
    subject: `Su cuestionario de la Visita Anual de Bienestar de ${practice}`,
    text:
      `${practice} le pide que conteste el cuestionario de su Visita Anual de Bienestar de Medicare antes de su cita. ` +
      `Toma unos 15 minutos, y puede dejarlo y volver a él con el mismo enlace.\n\n` +
      `Abra este enlace para contestar las preguntas (sirve hasta que envíe sus respuestas, y durante ${days} días):\n` +
      `${link}\n\n` +
      `To answer in English, open this link:\n${otherLink}\n\n` +
      `Si no esperaba este correo, comuníquese con ${practice}.\n`,
  }),
};

/** The invitation e-mail in `language`. */
export function invitationMail(language: PatientLanguage, parts: MailParts): InvitationMail {
  return INVITATIONS[language](parts);
}
