import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyProcedure, inferProcedureInput, inferTransformedProcedureOutput } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import type { ErrorKind } from '@first-round/shared/errors';
import type { AppRouter } from '@first-round/server/router';

/*
 * The network boundary of the component tests: a terminating tRPC link that answers each call from a handler
 * named after its procedure, typed by the app's own router (a handler answers what the server would, or the
 * test does not compile). Every call is recorded, so a test can say what request a click made; a subscription
 * carries what the test pushes (`push`), as the live stream would. Everything
 * above it (the hold-back gate, TanStack Query, the screens) is the app's own code.
 */

type Answer<P extends AnyProcedure> = inferTransformedProcedureOutput<AppRouter, P>;
type Handler<P extends AnyProcedure> = (input: inferProcedureInput<P>) => Answer<P> | Promise<Answer<P>>;
type HandlerTree<R> = { [K in keyof R]?: R[K] extends AnyProcedure ? Handler<R[K]> : HandlerTree<R[K]> };
/** Answers by procedure, nested as the router is: `{ leaderboard: { group: (input) => page } }`. */
export type Handlers = HandlerTree<AppRouter['_def']['record']>;

/** A refusal as the server words it (server/src/trpc/trpc.ts's error formatter): a message and its kind. */
export class Refusal extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Call {
  path: string;
  input: unknown;
}

/** A promise settled from outside: an answer the test lets arrive when it chooses (a save in flight). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function lookup(handlers: Handlers, path: string): ((input: unknown) => unknown) | undefined {
  let node: unknown = handlers;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'function' ? (node as (input: unknown) => unknown) : undefined;
}

function merge(into: Record<string, unknown>, from: Record<string, unknown>) {
  for (const [key, value] of Object.entries(from)) {
    const old = into[key];
    if (typeof value === 'object' && value !== null && typeof old === 'object' && old !== null) merge(old as Record<string, unknown>, value as Record<string, unknown>);
    else into[key] = value;
  }
}

type StreamObserver = { next(value: { result: { type: 'started' } | { type: 'data'; data: unknown } }): void };

export class FakeServer {
  readonly calls: Call[] = [];
  private readonly handlers: Handlers = {};
  /** Open subscriptions by procedure ('draft.changes'): what `push` sends to. */
  private readonly streams = new Map<string, Set<StreamObserver>>();

  constructor(handlers: Handlers = {}) {
    this.answer(handlers);
  }

  /** Adds or replaces answers (the draft moved on, a save now fails). */
  answer(handlers: Handlers): this {
    merge(this.handlers as Record<string, unknown>, handlers as Record<string, unknown>);
    return this;
  }

  /** The inputs of every call made to `path` so far, oldest first. */
  inputsTo(path: string): unknown[] {
    return this.calls.filter((c) => c.path === path).map((c) => c.input);
  }

  /** Whether a subscription to `path` is open (the live layer has connected). */
  streaming(path: string): boolean {
    return (this.streams.get(path)?.size ?? 0) > 0;
  }

  /** Sends one tracked event (`id`, `data`) on every open subscription to `path`, as the server's stream does. */
  push(path: string, id: string, data: unknown): void {
    for (const observer of this.streams.get(path) ?? []) observer.next({ result: { type: 'data', data: { id, data } } });
  }

  link(): TRPCLink<AppRouter> {
    return () =>
      ({ op }) =>
        observable((observer) => {
          this.calls.push({ path: op.path, input: op.input });
          // A stream opens at once and carries what the test pushes.
          if (op.type === 'subscription') {
            const open = this.streams.get(op.path) ?? new Set();
            this.streams.set(op.path, open);
            const stream = observer as unknown as StreamObserver;
            open.add(stream);
            stream.next({ result: { type: 'started' } });
            return () => open.delete(stream);
          }
          const handler = lookup(this.handlers, op.path);
          let closed = false;
          void (async () => {
            try {
              if (!handler) throw new Refusal('NOT_FOUND', `The fake server has no answer for ${op.path}`);
              const data = await handler(op.input);
              if (closed) return;
              observer.next({ result: { type: 'data', data } });
              observer.complete();
            } catch (error) {
              if (closed) return;
              const refusal = error instanceof Refusal ? error : new Refusal('INTERNAL', String(error));
              observer.error(
                TRPCClientError.from({ error: { code: -32600, message: refusal.message, data: { kind: refusal.kind, detail: refusal.message, path: op.path, ...refusal.data } } }),
              );
            }
          })();
          return () => {
            closed = true;
          };
        });
  }
}
