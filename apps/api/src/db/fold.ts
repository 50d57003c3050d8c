// Accent and case folding shared by the patients' `search_text` column (a generated column, so it needs an
// immutable expression: `lower` and `translate`, no `unaccent`, which is only stable) and the search
// terms, so both sides fold the same way on PGlite and on a server.

const BASES: Record<string, string> = {
  a: "áàâäãåāăą",
  c: "çćčĉċ",
  d: "ďđ",
  e: "éèêëēėęěĕ",
  g: "ğĝġģ",
  h: "ĥħ",
  i: "íìîïīįıĩĭ",
  j: "ĵ",
  k: "ķ",
  l: "ĺļľłŀ",
  n: "ñńňņ",
  o: "óòôöõøōőŏ",
  r: "ŕřŗ",
  s: "śšşŝș",
  t: "ťţț",
  u: "úùûüūůűųũŭ",
  w: "ŵ",
  y: "ýÿŷ",
  z: "źžż",
};

const pairs = Object.entries(BASES).flatMap(([base, accented]) =>
  [...accented].flatMap((ch) => {
    const upper = ch.toUpperCase();
    return upper === ch || upper.length !== 1
      ? [[ch, base]]
      : [
          [ch, base],
          [upper, base],
        ];
  }),
);

/** The characters `translate` replaces (accented letters in both cases) and, position for position, their bases. */
export const FOLD_FROM = pairs.map(([from]) => from).join("");
export const FOLD_TO = pairs.map(([, to]) => to).join("");

const FOLD = new Map(pairs.map(([from, to]) => [from!, to!]));

/** Folds text as the `search_text` column does: lower case, accents removed. */
export function fold(text: string): string {
  let out = "";
  for (const ch of text.toLowerCase()) out += FOLD.get(ch) ?? ch;
  return out;
}

/**
 * The SQL of the patients' `search_text` column: last and first name, MRN, e-mail, phone as typed and
 * as digits, folded. A person's words in any order all match as substrings (a trigram index serves it).
 */
export const SEARCH_TEXT_SQL =
  `translate(lower(last_name || ' ' || first_name || ' ' || mrn || ' ' || coalesce(email, '') || ' ' || ` +
  `coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g')), ` +
  `'${FOLD_FROM}', '${FOLD_TO}')`;
