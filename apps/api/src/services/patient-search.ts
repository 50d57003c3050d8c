import { and, eq, like, or, sql, type SQL } from "drizzle-orm";
import { patients } from "../db/schema.js";
import { fold } from "../db/fold.js";

/** What a clinic's search box holds, read as words that must all match and birth dates. */
export interface PatientQuery {
  /** Each word as alternatives (a phone-like word also as its digits), folded like `search_text`. */
  words: string[][];
  /** Birth dates as YYYY-MM-DD. */
  dates: string[];
}

/** A real calendar date as YYYY-MM-DD, or undefined. */
function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return undefined;
  }
  return date.toISOString().slice(0, 10);
}

/** 1952-11-02, or 11/02/1952 as US clinics write it (month first). */
function dateOf(word: string): string | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(word);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(word);
  if (us) return isoDate(Number(us[3]), Number(us[1]), Number(us[2]));
  return undefined;
}

/**
 * Reads a search as clinics type it: names in any order ("Walter Hobbs", "Hobbs Walter", "Hobbs,
 * Walter"), an MRN, a birth date (1952-11-02 or 11/02/1952), an e-mail or a phone number in any
 * punctuation. Every word must match somewhere in the patient's names, MRN, e-mail or phone,
 * case and accents aside; a date must be the birth date.
 */
export function parsePatientQuery(q: string): PatientQuery {
  const words: string[][] = [];
  const dates: string[] = [];
  for (const part of q.split(/[\s,;]+/)) {
    // Brackets and quotes around a word: "(WH-1952)" as the suggestions show an MRN, "(555)".
    const raw = part.replace(/^[("'[]+|[)"'\]]+$/g, "");
    if (raw === "") continue;
    const date = dateOf(raw);
    if (date !== undefined) {
      dates.push(date);
      continue;
    }
    const word = fold(raw);
    const digits = word.replace(/\D/g, "");
    // "(555)" or "123-4567" also as digits, so any way of writing the number finds it.
    const phoneLike = digits.length > 0 && /^[\d()+.\-/]+$/.test(word) && digits !== word;
    words.push(phoneLike ? [word, digits] : [word]);
  }
  return { words, dates };
}

/** Escapes LIKE wildcards so a search word matches literally. */
const contains = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A search's conditions on `patients`, served by patients_search_idx (and patients_dob_idx for a
 * date): each date and each word's pattern given by `value`, as a parameter or a placeholder.
 */
function conditionsOf({ words, dates }: PatientQuery, value: (name: string, text: string) => unknown): SQL[] {
  return [
    ...dates.map((date, i) => eq(patients.dob, sql`${value(dateName(i), date)}::date`)),
    ...words.map((alternatives, i) =>
      or(
        ...alternatives.map((w, j) => like(patients.searchText, sql`${value(wordName(i, j), contains(w))}`)),
      )!,
    ),
  ];
}

/** The names of a search's placeholders: its dates', and each way of writing each word's. */
const dateName = (i: number) => `d${i}`;
const wordName = (i: number, j: number) => `w${i}_${j}`;

/** The search's conditions on `patients` (none for an empty search). */
export function patientSearchConditions(q: string | undefined): SQL[] {
  if (q === undefined || q.trim() === "") return [];
  return conditionsOf(parsePatientQuery(q), (_, text) => text);
}

/** All of {@link patientSearchConditions} together, or undefined. */
export const patientSearch = (q: string | undefined): SQL | undefined => {
  const conditions = patientSearchConditions(q);
  return conditions.length === 0 ? undefined : and(...conditions);
};

/**
 * The search's conditions with a placeholder for each word and date, built once per shape of the
 * search (how many dates, how many words and how many ways of writing each), and the values of this
 * search's placeholders; undefined for an empty search.
 */
export function patientSearchShape(
  q: string | undefined,
): { shape: string; conditions: () => SQL; values: Record<string, string> } | undefined {
  if (q === undefined || q.trim() === "") return undefined;
  const query = parsePatientQuery(q);
  if (query.words.length === 0 && query.dates.length === 0) return undefined;
  const values: Record<string, string> = {};
  query.dates.forEach((date, i) => (values[dateName(i)] = date));
  query.words.forEach((alternatives, i) =>
    alternatives.forEach((w, j) => (values[wordName(i, j)] = contains(w))),
  );
  return {
    shape: `${query.dates.length}:${query.words.map((alternatives) => alternatives.length).join(",")}`,
    conditions: () => and(...conditionsOf(query, (name) => sql.placeholder(name)))!,
    values,
  };
}

/**
 * An MRN as clinics type one: a single word of letters and digits (both), a hyphen, dot, slash or
 * underscore between them, no space ("MRNa0031235", "WH-1952", "(WH-1952)" as the suggestions show it).
 */
const MRN_LIKE = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9._/-]{1,63}$/;

/** The search as an MRN to probe on patients_mrn_key first (exactly as typed), or undefined. */
export function mrnOf(q: string | undefined): string | undefined {
  const term = q?.trim().replace(/^[("'[]+|[)"'\]]+$/g, "");
  return term !== undefined && MRN_LIKE.test(term) ? term : undefined;
}

/** Words shorter than this have too few trigrams to tell a typo from another name; they match exactly. */
const FUZZY_LENGTH = 3;

/**
 * The typo-tolerant form of a search, tried only when the search itself found nothing: each word of at
 * least three characters and no digit matches a word of the patient's names, MRN, e-mail or phone that is like it
 * (`<%` at db/index.ts's WORD_SIMILARITY, served by patients_search_idx), shorter words and dates as before; ranked by how alike the
 * words are. Undefined when no word is long enough to be a typo.
 */
export function patientFuzzyShape(
  q: string | undefined,
): { shape: string; conditions: () => SQL; score: () => SQL; values: Record<string, string> } | undefined {
  if (q === undefined || q.trim() === "") return undefined;
  const { words, dates } = parsePatientQuery(q);
  const first = words.map((alternatives) => alternatives[0]!);
  // Names only: a word with a digit (an MRN, a phone number, a date that is no date) stays exact.
  const fuzzy = first.map((w) => w.length >= FUZZY_LENGTH && !/\d/.test(w));
  if (!fuzzy.some(Boolean)) return undefined;
  const values: Record<string, string> = {};
  dates.forEach((date, i) => (values[dateName(i)] = date));
  first.forEach((w, i) => (values[wordName(i, 0)] = fuzzy[i] ? w : contains(w)));
  const word = (i: number) => sql.placeholder(wordName(i, 0));
  return {
    shape: `${dates.length}:${fuzzy.map((f) => (f ? "f" : "e")).join("")}`,
    conditions: () =>
      and(
        ...dates.map((_, i) => eq(patients.dob, sql`${sql.placeholder(dateName(i))}::date`)),
        ...first.map((_, i) =>
          fuzzy[i]
            ? sql`${word(i)}::text <% ${patients.searchText}`
            : like(patients.searchText, sql`${word(i)}`),
        ),
      )!,
    score: () =>
      sql.join(
        first.flatMap((_, i) =>
          fuzzy[i] ? [sql`word_similarity(${word(i)}::text, ${patients.searchText})`] : [],
        ),
        sql` + `,
      ),
    values,
  };
}
