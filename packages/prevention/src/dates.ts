/**
 * Calendar dates as `YYYY-MM-DD` strings, computed on the proleptic Gregorian calendar without time
 * zones: a plan is about days, and a date must not move with the server's zone.
 */

/** A calendar date. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Reads a `YYYY-MM-DD` date that exists on the calendar; undefined otherwise. */
export function parseDate(value: unknown): CalendarDate | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

export function formatDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Days since 1970-01-01. */
export function toDayNumber({ year, month, day }: CalendarDate): number {
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

export function fromDayNumber(days: number): CalendarDate {
  const date = new Date(days * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Negative, zero or positive as `a` is before, on or after `b`. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return toDayNumber(a) - toDayNumber(b);
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  return fromDayNumber(toDayNumber(date) + days);
}

/** The same day `months` later; a day the month lacks becomes its last (Jan 31 + 1 month = Feb 28 or 29). */
export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** The same day `years` later; 29 February becomes 28 February in a common year. */
export function addYears(date: CalendarDate, years: number): CalendarDate {
  return addMonths(date, years * 12);
}

/**
 * The first day on which `months` full calendar months have passed after the month of `date`, as CMS
 * counts the AWV and other "once every 12 months" services: counting starts with the month after the
 * month of the last service (CMS AWV FAQ 3545; Medicare Claims Processing Manual, chapter 18, §140). An
 * AWV on any day of November 2025 leaves 11 full months passed on 1 November 2026.
 */
export function afterFullMonths(date: CalendarDate, months: number): CalendarDate {
  return addMonths({ year: date.year, month: date.month, day: 1 }, months + 1);
}

/** Full calendar months from the month after `from`'s month to the month before `to`'s month. */
export function fullMonthsBetween(from: CalendarDate, to: CalendarDate): number {
  return Math.max(0, to.year * 12 + to.month - (from.year * 12 + from.month) - 1);
}

/** Whole years of age on `date` for a birth date; a 29 February birthday is reached on 1 March in a common year. */
export function ageOn(birth: CalendarDate, date: CalendarDate): number {
  let age = date.year - birth.year;
  if (date.month < birth.month || (date.month === birth.month && date.day < birth.day)) age -= 1;
  return age;
}

/** The day on which someone born on `birth` turns `age`. */
export function dateTurning(birth: CalendarDate, age: number): CalendarDate {
  const year = birth.year + age;
  if (birth.month === 2 && birth.day === 29 && !isLeapYear(year)) return { year, month: 3, day: 1 };
  return { year, month: birth.month, day: birth.day };
}

/** Years from `from` to `to` as a decimal (days / 365.25), for thresholds such as "quit within 15 years". */
export function yearsBetween(from: CalendarDate, to: CalendarDate): number {
  return (toDayNumber(to) - toDayNumber(from)) / 365.25;
}

export function maxDate(a: CalendarDate, b: CalendarDate): CalendarDate {
  return compareDates(a, b) >= 0 ? a : b;
}
