/** The selection screen's title (docs/web-app.md explains each case). */
export function selectPlayersTitle(o: { started: boolean; groupMode: boolean; reuse: boolean; hasPicks: boolean }): string {
  if (o.started) return o.groupMode ? 'My Picks / View Picks' : 'View Picks';
  if (o.groupMode && o.reuse) return 'Reuse & Edit Picks';
  return o.hasPicks ? 'Edit Picks' : 'Select Players';
}

/** A positive integer id from the URL, or null. */
export function parseId(raw: string | null | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 && n <= 2_147_483_647 ? n : null;
}
