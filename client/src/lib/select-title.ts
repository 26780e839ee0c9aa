/** The selection screen's title (docs/web-app.md explains each case). */
export function selectPlayersTitle(o: { started: boolean; groupMode: boolean; reuse: boolean; hasPicks: boolean }): string {
  if (o.started) return o.groupMode ? 'My Picks / View Picks' : 'View Picks';
  if (o.groupMode && o.reuse) return 'Reuse & Edit Picks';
  return o.hasPicks ? 'Edit Picks' : 'Select Players';
}
