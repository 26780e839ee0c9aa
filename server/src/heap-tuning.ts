import v8 from 'node:v8';

/*
 * V8's allocation-site pretenuring is turned off for the server process. Imported first by main.ts, before
 * any other module of the server runs.
 *
 * Why: under a steady stream of reads, V8 decides that some short-lived per-request objects survive, and
 * from then on allocates them straight in the old generation. Every young object they point to then
 * survives each scavenge too (the old generation is a root for it): scavenges took 5–9 ms instead of under
 * 1 ms, a few MB were promoted at each, and the old generation filled with garbage (361 MB before a full
 * collection freed 293 MB of it). With it off, CPU per hot read fell from 66 to 44 µs (`npm run bench:reads`,
 * docs/benchmarks.md "Reads"), and the heap held steady. Nothing else changes: it is a choice of where V8
 * first places an object, not of what the program does.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
