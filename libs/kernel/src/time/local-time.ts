/** A calendar day in a time zone, `YYYY-MM-DD`. */
export type LocalDate = string;

const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, found);
  }
  return found;
}

function parts(instant: Date, timeZone: string): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
  const all = format(timeZone).formatToParts(instant);
  const part = (type: string) => Number(all.find((p) => p.type === type)!.value);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour') % 24,
    minute: part('minute'),
    second: part('second'),
  };
}

/** The local date of an instant in a time zone (an IANA zone: America/Montevideo). */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const p = parts(instant, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The local time of day of an instant in a time zone, `HH:MM:SS` (24 hours). */
export function localTimeOf(instant: Date, timeZone: string): string {
  const p = parts(instant, timeZone);
  return [p.hour, p.minute, p.second].map((n) => String(n).padStart(2, '0')).join(':');
}

/** The local hour (0–23) of an instant in a time zone. */
export function localHourOf(instant: Date, timeZone: string): number {
  return parts(instant, timeZone).hour;
}

/** The instant a local date starts (00:00) in a time zone, a change of offset that day included. */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const utcMidnight = Date.UTC(year, month - 1, day);
  const offset = (instant: number) => {
    const p = parts(new Date(instant), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(instant / 1000) * 1000;
  };
  // The zone's offset at UTC midnight, then once more at the corrected moment.
  const first = utcMidnight - offset(utcMidnight);
  return new Date(utcMidnight - offset(first));
}

/** A local date `days` later (earlier when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The weekday of a local date: 0 Sunday … 6 Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Whether a text is a real calendar date `YYYY-MM-DD`. */
export function isLocalDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}
