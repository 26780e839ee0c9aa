import { draftStatusOutput, type DraftStatus } from '@first-round/shared/schemas';
import type { Orm } from '../../db/orm.js';
import { prepareJson } from '../../responses/json-body.js';
import { after, type MaybePromise } from '../../cache/maybe-promise.js';
import { Versioned, type VersionSource } from '../../cache/versioned.js';
import { hasStarted, statusOf, type DraftSettings } from './draft.service.js';
import { readDraftState, type DraftStateRow } from './draft.repository.js';

/**
 * The draft's state for reads that every open page makes (draft.status, "has it started?" before the
 * standings): read once per version of the `draft` and `board` topics, validated and serialised once. Writes never use it: the draft
 * lock is checked inside each write's own transaction.
 */
export class DraftStatusCache {
  private readonly state: Versioned<DraftStateRow>;
  private built: { state: DraftStateRow; started: boolean; status: DraftStatus } | undefined;

  constructor(
    orm: Orm,
    private readonly settings: DraftSettings,
    events: VersionSource,
  ) {
    this.state = new Versioned(events, ['draft', 'board'], () => readDraftState(orm.em.fork()));
  }

  status(): MaybePromise<DraftStatus> {
    return after(this.state.get(), (state) => {
      // The deadline passing starts the draft without any change to the state: checked on every read.
      const started = hasStarted(state, this.settings);
      if (this.built?.state !== state || this.built.started !== started) {
        this.built = { state, started, status: prepareJson(draftStatusOutput.parse(statusOf(state, this.settings))) };
      }
      return this.built.status;
    });
  }

  hasStarted(): MaybePromise<boolean> {
    return after(this.state.get(), (state) => hasStarted(state, this.settings));
  }
}
