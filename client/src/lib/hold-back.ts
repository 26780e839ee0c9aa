import type { DraftChange, LiveUpdate } from '@first-round/shared/schemas';

/*
 * No spoilers: the live stream's messages held back by this device's viewing delay. Each draft
 * change is released at the time it was recorded (its `at`, the server's clock) plus the delay, converted
 * to this device's clock with the skew measured from the messages themselves (never the device clock
 * alone: a phone a minute fast would spoil everything). The standings page the stream sends after a change
 * is released with that change. Pure: the caller (components/draft-live.tsx) owns the timer and applies
 * what is released, in order.
 */

/**
 * The device clock minus the server's, from samples (device time at receipt, server time of the event).
 * Every sample over-estimates it by the network's delay (an event arrives after it happened; a replayed one
 * long after), so the smallest is the best, and a release is never early because of it.
 */
export class ClockSkew {
  private best: number | null = null;

  sample(serverMs: number, deviceMs: number): void {
    const skew = deviceMs - serverMs;
    if (this.best === null || skew < this.best) this.best = skew;
  }

  /** The device time of a server time (the device clock as is until a sample came). */
  toDevice(serverMs: number): number {
    return serverMs + (this.best ?? 0);
  }
}

/**
 * The page's one estimate, kept across the stream's connections and the live layer's remounts: a new
 * connection that resumes from Last-Event-ID first gets the changes it missed, replayed long after their
 * `at`, and an estimate started afresh from those would hold the next picks back by their age as well.
 */
export const pageClockSkew = new ClockSkew();

interface Held {
  message: LiveUpdate;
  /** Server time the draft change happened (the standings after it: that change's). */
  serverAt: number;
}

export class HeldChanges {
  private queue: Held[] = [];

  constructor(
    private delayMs: number,
    readonly skew = new ClockSkew(),
  ) {}

  get size(): number {
    return this.queue.length;
  }

  /** Held picks, for the badge. */
  heldPicks(): number {
    return this.queue.filter((h) => h.message.kind === 'pick').length;
  }

  /**
   * A message from the stream; returns what is due now (in order: everything held before it first). An undo
   * of a pick still held takes the pick away with it: this viewer never sees the mistake, nor a toast about
   * taking it back (what the TV showed: nothing).
   */
  receive(message: LiveUpdate, deviceNow: number): LiveUpdate[] {
    if (message.kind === 'standings') {
      const change = this.queue.find((h) => h.message.kind !== 'standings' && (h.message as DraftChange).event_id === message.event_id);
      const last = this.queue.at(-1);
      const serverAt = change?.serverAt ?? last?.serverAt;
      if (serverAt !== undefined) this.queue.push({ message, serverAt });
      else return [message]; // nothing held: the page after a change already shown
      return this.due(deviceNow);
    }
    const serverAt = Date.parse(message.at);
    this.skew.sample(serverAt, deviceNow);
    if (message.kind === 'undo' && this.cancelHeldPick(message)) return this.due(deviceNow);
    this.queue.push({ message, serverAt });
    return this.due(deviceNow);
  }

  /** Everything whose time has come, in the order received (a later item never overtakes an earlier one). */
  due(deviceNow: number): LiveUpdate[] {
    let n = 0;
    while (n < this.queue.length && this.releaseAt(this.queue[n]!) <= deviceNow) n += 1;
    return this.queue.splice(0, n).map((h) => h.message);
  }

  /** "Catch up": everything held, at once, in order. */
  catchUp(): LiveUpdate[] {
    return this.queue.splice(0).map((h) => h.message);
  }

  /** A new delay (the viewer chose another); what is due under it is returned. */
  setDelay(delayMs: number, deviceNow: number): LiveUpdate[] {
    this.delayMs = delayMs;
    return this.due(deviceNow);
  }

  /** Device time the next release is due, or null when nothing is held. */
  nextRelease(): number | null {
    const head = this.queue[0];
    return head ? this.releaseAt(head) : null;
  }

  /**
   * Device time the newest held change happened (0 when nothing is held): everything held is released by
   * then plus the delay, whatever the delay becomes (the read gate, lib/hold-gate.ts, adds it).
   */
  newestHeldAt(): number {
    const last = this.queue.at(-1);
    return last ? this.skew.toDevice(last.serverAt) : 0;
  }

  private releaseAt(h: Held): number {
    return this.skew.toDevice(h.serverAt) + this.delayMs;
  }

  /** Removes the held pick an undo takes back (the newest held pick of its slot) and its standings. */
  private cancelHeldPick(undo: DraftChange): boolean {
    for (let i = this.queue.length - 1; i >= 0; i -= 1) {
      const m = this.queue[i]!.message;
      if (m.kind === 'undo' || m.kind === 'reset') return false; // an older pick's undo is not this one
      if (m.kind !== 'pick') continue;
      if (m.slot !== undo.slot) return false; // the undo takes back the latest pick only
      const eventId = m.event_id;
      this.queue = this.queue.filter((h, j) => j !== i && !(h.message.kind === 'standings' && h.message.event_id === eventId));
      return true;
    }
    return false;
  }
}
