/**
 * A value now, or a promise of it. The reads every open page repeats (trpc/hot-read.ts) are answered from
 * caches, and an answer that is in the cache is given without a promise: MikroORM's AsyncLocalStorage
 * turns Node's async hooks on for the whole process, after which every promise costs bookkeeping. A
 * cached standings read made 33 promises, a fifth of its CPU (docs/benchmarks.md). What has to wait for
 * the database still returns a promise; callers that `await` either kind need no change.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)` now if the value is here, else once it is. */
export function after<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
