/** Types of builds.mjs (plain JavaScript, so that `npm start` runs it before anything is compiled). */
export const BUILDS: Record<'client' | 'server', { output: string; sources: string[] }>;
/** True when the build's output is missing or older than any of its sources. */
export function isStale(root: string, name: 'client' | 'server'): boolean;
/** Bundles the server into server/dist/main.js (or `outfile`). */
export function buildServer(root: string, outfile?: string): Promise<void>;
