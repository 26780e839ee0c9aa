/**
 * npm run docs:procedures: writes docs/procedures.md from the router (every procedure, who may call it,
 * its shapes, errors and REST paths) and the list of error kinds in docs/typed-api.md
 * (scripts/lib/procedure-reference.ts). scripts/docs-procedures.test.ts fails until both are current.
 */
import { procedureReference, readDoc, REFERENCE_PATH, TYPED_API_PATH, typedApiWithKinds, writeDoc } from './lib/procedure-reference.js';

writeDoc(REFERENCE_PATH, procedureReference());
writeDoc(TYPED_API_PATH, typedApiWithKinds(readDoc(TYPED_API_PATH)));
console.log(`wrote ${REFERENCE_PATH} and the error kinds in ${TYPED_API_PATH}`);
