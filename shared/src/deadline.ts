/** Dates as the game tells them: on the clock the NFL draft is announced in (Eastern time). */

const DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', month: 'short', day: 'numeric' });
const TIME = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', minute: '2-digit' });

/** 'Thu Apr 23 · 8 PM ET' (minutes only when there are some: '8:30 PM ET'). */
export function formatDeadline(iso: string | Date): string {
  const at = new Date(iso);
  return `${DAY.format(at).replace(',', '')} · ${TIME.format(at).replace(':00', '')} ET`;
}
