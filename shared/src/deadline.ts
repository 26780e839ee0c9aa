/**
 * Times as the game tells them, one way everywhere: 'Thu Apr 23, 8:00 PM EDT', in the reader's own time
 * zone and named, so two screens never tell one moment on two clocks. The web app passes no zone (the
 * browser's own: the player's); the server, which cannot know its reader's zone (e-mails, share cards, the
 * invite page), tells Eastern time, the clock the NFL draft is announced on, and names it.
 */
const FORMATS = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = FORMATS.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    FORMATS.set(key, f);
  }
  return f;
}

/**
 * 'Thu Apr 23, 8:00 PM EDT': `at` in `timeZone` (the runtime's own when absent), the zone named; with
 * `year`, 'Thu Apr 23, 2026, 8:00 PM EDT' (where the year is not evident).
 */
export function formatWhen(at: Date | string, timeZone?: string, options: { year?: boolean } = {}): string {
  const date = new Date(at);
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(date).map((p) => [p.type, p.value]));
  const year = options.year ? `, ${new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric' }).format(date)}` : '';
  return `${parts.weekday} ${parts.month} ${parts.day}${year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

/** A time of day the same way: '8:16 PM EDT' (a lockout lifting, a link running out today). */
export function formatClock(at: Date | string, timeZone?: string): string {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

/** The clock the server tells times on: Eastern, the draft's own. */
export const DRAFT_TIME_ZONE = 'America/New_York';

/** The pick deadline as the server writes it (no reader's zone known): 'Thu Apr 23, 8:00 PM EDT'. */
export function formatDeadline(iso: string | Date): string {
  return formatWhen(iso, DRAFT_TIME_ZONE);
}
