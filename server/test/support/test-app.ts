// The project's tests and anyone else's use one kit: `@first-round/server/testing` (server/src/testing/index.ts).
export * from '../../src/testing/index.js';
