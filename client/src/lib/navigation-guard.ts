import type { HistoryRouterProps } from 'react-router-dom';

/**
 * The app's one navigation blocker: a screen with unsaved changes holds a navigation back and asks first.
 * React Router's own blocker (useBlocker) needs its data router, whose code would add about 16 KB gzip to
 * every first load (over the 190 KB budget, docs/web-app.md); this does the same job on the browser history
 * the app's router already uses (HistoryRouter, app.tsx). Every in-app navigation goes through it:
 * links and navigate() (push, replace) are held before they happen; Back and Forward (a pop the browser has
 * already made) are undone in the browser before the router hears of them, then asked about, and redone
 * if the player chooses to leave. Framework-free: the screen mounts it with useLeaveGuard.
 */
export type AppHistory = HistoryRouterProps['history'];
type Listener = Parameters<AppHistory['listen']>[0];
type Update = Parameters<Listener>[0];

/** Where a navigation goes, as the guard's question needs it. */
export interface Destination {
  pathname: string;
  search: string;
}

export class NavigationGuard {
  /** What the router is given: the browser history, with push, replace and pops passing the guard. */
  readonly history: AppHistory;
  private ask: ((to: Destination) => boolean) | null = null;
  private held: (() => void) | null = null;
  private readonly watchers = new Set<() => void>();
  /** Pops the guard makes itself (undoing or redoing one): never asked about. */
  private ownPops = 0;
  /** The next own pop is a redo the player chose: the router hears it. */
  private redoing = false;
  /** The location the router was last told of. */
  private routerAt: Destination;

  constructor(
    private readonly inner: AppHistory,
    private readonly browser: { go(delta: number): void } = window.history,
  ) {
    this.routerAt = { pathname: inner.location.pathname, search: inner.location.search };
    const hold = (to: Parameters<AppHistory['push']>[0], go: () => void) => {
      const where = typeof to === 'string' ? to : `${to.pathname ?? inner.location.pathname}${to.search ?? ''}`;
      const url = new URL(where, `http://app${inner.location.pathname}`);
      if (this.shouldAsk({ pathname: url.pathname, search: url.search })) this.hold(go);
      else go();
    };
    this.history = new Proxy(inner, {
      get: (target, prop, receiver) => {
        if (prop === 'push') return ((to, state) => hold(to, () => target.push(to, state))) satisfies AppHistory['push'];
        if (prop === 'replace') return ((to, state) => hold(to, () => target.replace(to, state))) satisfies AppHistory['replace'];
        if (prop === 'listen') {
          return ((listener: Listener) =>
            target.listen((update) =>
              this.onPop(update, (heard) => {
                this.routerAt = { pathname: heard.location.pathname, search: heard.location.search };
                listener(heard);
              }),
            )) satisfies AppHistory['listen'];
        }
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
  }

  /** Starts asking before navigations `ask` says need it (null: stop asking). One screen at a time. */
  setQuestion(ask: ((to: Destination) => boolean) | null): void {
    this.ask = ask;
    if (!ask && this.held) this.settle(null);
  }

  /** Whether a navigation is held, waiting for the player's answer. */
  isHolding(): boolean {
    return this.held !== null;
  }

  /** Go ahead with the held navigation. */
  proceed(): void {
    this.settle(this.held);
  }

  /** Stay: the held navigation is dropped. */
  cancel(): void {
    this.settle(null);
  }

  subscribe(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private shouldAsk(to: Destination): boolean {
    // Where the router is (during a pop the browser history is already elsewhere).
    const here = this.routerAt;
    if (to.pathname === here.pathname && to.search === here.search) return false;
    return this.ask?.(to) ?? false;
  }

  private hold(go: () => void): void {
    this.held = go;
    this.notify();
  }

  private settle(go: (() => void) | null): void {
    this.held = null;
    this.notify();
    go?.();
  }

  private onPop(update: Update, listener: Listener): void {
    if (update.action !== 'POP') return listener(update);
    if (this.ownPops > 0) {
      this.ownPops -= 1;
      // The redo of a pop the player chose to go through with: the router hears it now.
      if (this.redoing) {
        this.redoing = false;
        listener(update);
      }
      return;
    }
    const delta = update.delta;
    if (delta === null || !this.shouldAsk({ pathname: update.location.pathname, search: update.location.search })) return listener(update);
    // Put the browser back where the router still is, then ask; leaving redoes the same move.
    this.ownPops += 1;
    this.browser.go(-delta);
    this.hold(() => {
      this.ownPops += 1;
      this.redoing = true;
      this.browser.go(delta);
    });
  }

  private notify(): void {
    for (const watcher of this.watchers) watcher();
  }
}
