import { TRPCClientError, type TRPCLink } from '@trpc/client';
import type { AnyProcedure, inferProcedureInput, inferTransformedProcedureOutput } from '@trpc/server';
import { observable } from '@trpc/server/observable';
import type { ErrorKind } from '@first-round/shared/errors';
import type { AppRouter } from '@first-round/server/router';

/*
 * The network boundary of the component tests: a terminating tRPC link that answers each call from a handler
 * named after its procedure, typed by the app's own router (a handler answers what the server would, or the
 * test does not compile). Every call is recorded, so a test can say what request a click made. Everything
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

export class FakeServer {
  readonly calls: Call[] = [];
  private readonly handlers: Handlers = {};

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

  link(): TRPCLink<AppRouter> {
    return () =>
      ({ op }) =>
        observable((observer) => {
          // The live stream is no part of these tests: a subscription stays open and silent.
          if (op.type === 'subscription') return () => undefined;
          this.calls.push({ path: op.path, input: op.input });
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
