/**
 * One load measurement in a fresh process (used by `bench/api.bench.ts`): the load generator's own
 * garbage and JIT state from earlier scenarios (e.g. 110 KB enterprise pages) never slows a later one.
 * Input: the path of a JSON file `{ name, baseUrl, paths, connections, seconds, warmupSeconds, headers?,
 * requests?, zipfAlpha? }` as argv[2]. Output: the LoadResult as one JSON line on stdout.
 */
import { readFileSync } from "node:fs";
import { load, zipfSampler } from "./lib.ts";

const job = JSON.parse(readFileSync(process.argv[2], "utf8")) as {
  name: string;
  baseUrl: string;
  paths: string[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
  headers?: Record<string, string>;
  requests?: { path: string; headers?: Record<string, string> }[];
  zipfAlpha?: number;
};
const sampler = job.zipfAlpha === undefined ? undefined : zipfSampler(job.zipfAlpha);
if (job.warmupSeconds > 0) await load(job.name, job.baseUrl, job.paths, job.connections, job.warmupSeconds, job.headers, job.requests, sampler);
const result = await load(job.name, job.baseUrl, job.paths, job.connections, job.seconds, job.headers, job.requests, sampler);
process.stdout.write(`${JSON.stringify(result)}\n`);
