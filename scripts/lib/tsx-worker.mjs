// Runs a TypeScript module in a worker thread: loader hooks given to the parent (`--import tsx`) do not
// reach workers on Node 20, so each worker registers tsx itself, then imports `workerData.module`.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
