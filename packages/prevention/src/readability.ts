/**
 * A simple Flesch-Kincaid grade level for English text, to check that patient texts stay plain:
 * grade = 0.39 (words / sentences) + 11.8 (syllables / words) - 15.59 (Kincaid et al., 1975).
 * Syllables are counted with the usual vowel-group rule, so the figure is an estimate, as every
 * Flesch-Kincaid figure is.
 */
export function fleschKincaidGrade(text: string): number {
  const words = text.match(/[A-Za-z]+(?:'[A-Za-z]+)*|\d+/g) ?? [];
  if (words.length === 0) return 0;
  const sentences = Math.max(1, (text.match(/[.!?]+(?=\s|$)/g) ?? []).length);
  const syllables = words.reduce((sum, word) => sum + countSyllables(word), 0);
  return 0.39 * (words.length / sentences) + 11.8 * (syllables / words.length) - 15.59;
}

/** Syllables in an English word by vowel groups, less a silent final e; a number counts as its digits read aloud, roughly. */
export function countSyllables(word: string): number {
  if (/^\d+$/.test(word)) return Math.min(word.length, 3);
  const w = word.toLowerCase().replace(/'/g, "");
  if (w.length <= 3) return 1;
  const trimmed = w.replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  return Math.max(1, (trimmed.match(/[aeiouy]{1,2}/g) ?? []).length);
}
