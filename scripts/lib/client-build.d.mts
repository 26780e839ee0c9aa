/** True when client/dist/index.html is missing or older than any source file (client-build.mjs). */
export function clientBuildIsStale(root: string): boolean;
