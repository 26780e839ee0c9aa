/**
 * The one switch of the hand-written fast paths (FAST_PATHS): `on` (the default: every piece), `off` (none:
 * plain Fastify and tRPC answer everything), or either followed by pieces to take away or add, e.g.
 * `on,-gzip` or `off,+hot-reads` (one piece alone, for measuring it). The game is the same either way;
 * only the bytes' path differs. Each piece and what answers instead when it is off:
 *
 * - `hot-reads`: the reads every open page repeats, answered as tRPC GETs in front of tRPC's adapter
 *   (wire/hot-reads.ts) and by the REST rows without a tRPC caller. Off: their tRPC procedures.
 * - `streams`: the live streams' SSE route (wire/sse-route.ts), frames written by hand, one buffer per
 *   change and page for every stream. Off: tRPC's own SSE adapter, per stream.
 * - `gzip`: on that route, shared pieces compressed once for every gzip stream (wire/gzip-stream.ts). Off:
 *   zlib per stream.
 */
export const FAST_PATH_PIECES = ['hot-reads', 'streams', 'gzip'] as const;
export type FastPathPiece = (typeof FAST_PATH_PIECES)[number];
export type FastPaths = ReadonlySet<FastPathPiece>;

export const ALL_FAST_PATHS: FastPaths = new Set(FAST_PATH_PIECES);
export const NO_FAST_PATHS: FastPaths = new Set();

const isPiece = (name: string): name is FastPathPiece => (FAST_PATH_PIECES as readonly string[]).includes(name);

/** FAST_PATHS' value as the pieces that are on; a string saying what is wrong with it otherwise. */
export function parseFastPaths(value: string): FastPaths | string {
  const [base = '', ...changes] = value.split(',').map((part) => part.trim().toLowerCase());
  if (base !== 'on' && base !== 'off') return `FAST_PATHS starts with on or off, then pieces to add (+name) or take away (-name): ${FAST_PATH_PIECES.join(', ')}`;
  const pieces = new Set<FastPathPiece>(base === 'on' ? FAST_PATH_PIECES : []);
  for (const change of changes) {
    const name = change.slice(1);
    if (!/^[+-]/.test(change) || !isPiece(name)) return `FAST_PATHS: ${JSON.stringify(change)} is not +name or -name of a piece (${FAST_PATH_PIECES.join(', ')})`;
    if (change.startsWith('+')) pieces.add(name);
    else pieces.delete(name);
  }
  return pieces;
}
