import { benchmarkRows } from '@first-round/shared/benchmark-entries';
import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { benchmarkRowsOutput, type BenchmarkRowDto, type DraftStatus, type PlayerDto } from '@first-round/shared/schemas';
import { prepareJson } from '../../responses/json-body.js';
import { after, type MaybePromise } from '../../cache/maybe-promise.js';
import type { DraftStatusCache } from '../draft/draft-status.cache.js';
import type { PlayersCache } from '../players/players.cache.js';

const NONE: BenchmarkRowDto[] = prepareJson([]);

/**
 * The benchmark entries (shared/src/benchmark-entries.ts) as every leaderboard shows them: scored from the
 * board and the draft state, both already cached per draft version, so they are worked out (and
 * serialised) once per version, whatever the number of readers. Off with BENCHMARK_ENTRIES=false.
 */
export class BenchmarkCache {
  private built: { board: PlayerDto[]; status: DraftStatus; rows: BenchmarkRowDto[] } | undefined;

  constructor(
    private readonly enabled: boolean,
    private readonly players: Pick<PlayersCache, 'list'>,
    private readonly draftStatus: Pick<DraftStatusCache, 'status'>,
  ) {}

  rows(): MaybePromise<BenchmarkRowDto[]> {
    if (!this.enabled) return NONE;
    return after(this.players.list(), (board) => after(this.draftStatus.status(), (status) => this.rowsFor(board, status)));
  }

  private rowsFor(board: PlayerDto[], status: DraftStatus): BenchmarkRowDto[] {
    if (this.built?.board !== board || this.built.status !== status) {
      const picked = board.map((p) => ({ rank: p.rank, draftRound: p.draft_round }));
      this.built = { board, status, rows: prepareJson(benchmarkRowsOutput.parse(benchmarkRows(picked, snapshotOf(status, board)))) };
    }
    return this.built.rows;
  }
}
