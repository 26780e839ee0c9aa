import { expect, it } from 'vitest';
import { restRoutes, type RestAuth } from '../server/src/rest/routes.js';
import type { Access } from '../server/src/trpc/trpc.js';
import { procedureEntries, procedureReference, readDoc, REFERENCE_PATH, TYPED_API_PATH, typedApiWithKinds } from './lib/procedure-reference.js';

/** The procedure reference cannot go stale: it is what the router generates, or this fails. */
const STALE = 'differs from what the router generates: run `npm run docs:procedures` and commit the result';

it(`${REFERENCE_PATH} is what the router generates`, () => {
  expect(readDoc(REFERENCE_PATH), `${REFERENCE_PATH} ${STALE}`).toBe(procedureReference());
});

it(`the error kinds in ${TYPED_API_PATH} are the ones the source lists`, () => {
  const text = readDoc(TYPED_API_PATH);
  expect(text, `the error kinds in ${TYPED_API_PATH} ${STALE}`).toBe(typedApiWithKinds(text));
});

it('says who may call each procedure as its REST rows do', () => {
  const rowSays: Record<RestAuth, Access[]> = { public: ['public'], bearer: ['signed-in', 'member', 'owner'], admin: ['operator'] };
  const access = new Map(procedureEntries().map((e) => [e.path, e.access]));
  const disagree = restRoutes.filter((r) => !rowSays[r.auth].includes(access.get(r.procedure)!)).map((r) => `${r.method} ${r.path}: ${r.auth} / ${access.get(r.procedure)}`);
  expect(disagree).toEqual([]);
});
