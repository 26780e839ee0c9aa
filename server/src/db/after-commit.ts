import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/**
 * Runs `apply` once `em`'s outermost transaction commits (knex resolves its execution then), at once
 * outside a transaction; never after a rollback, which changed nothing. What a write announces to other
 * instances applies to this one's own memory this way: the writer's next read must already see it.
 */
export function afterCommit(em: EntityManager, apply: () => void): void {
  let trx = em.getTransactionContext<Knex.Transaction & { parentTransaction?: Knex.Transaction }>();
  while (trx?.parentTransaction) trx = trx.parentTransaction;
  if (trx) trx.executionPromise.then(apply, () => {});
  else apply();
}
