import { playersOutput, type PlayerDto } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { prepareJson } from '../../responses/json-body.js';
import type { MaybePromise } from '../../cache/maybe-promise.js';
import { Versioned, type VersionSource } from '../../cache/versioned.js';
import { listBoard } from './players.repository.js';

/** The big board with its draft results: read, validated and serialised once per version of the draft and the board. */
export class PlayersCache {
  private readonly board: Versioned<PlayerDto[]>;

  constructor(orm: Orm, events: VersionSource) {
    this.board = new Versioned(events, ['draft', 'board'], async () => prepareJson(playersOutput.parse(await listBoard(orm.em.fork()))));
  }

  list(): MaybePromise<PlayerDto[]> {
    return this.board.get();
  }
}
