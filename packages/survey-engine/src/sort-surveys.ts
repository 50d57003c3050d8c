const FIRST = "Core Care Wellness Exam";
const SECOND = "Welcome to Medicare Exam";

function rank(title: string): number {
  return title === FIRST ? 0 : title === SECOND ? 1 : 2;
}

/**
 * A new list with 'Core Care Wellness Exam' first, 'Welcome to Medicare Exam' next and every other survey
 * in its original order (SPEC 2, survey dropdown).
 */
export function sortSurveys<T extends { title: string }>(list: readonly T[]): T[] {
  return list
    .map((item, index) => ({ item, index, rank: rank(item.title) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}
