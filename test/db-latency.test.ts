/**
 * Issue #34 item 4, "The event loop never waits on the database", held on PostgreSQL with 5 ms injected each way
 * between every node and the database (bench/db-latency.ts, test/latency-proxy.ts): `/healthz` answers with p99
 * under 25 ms while 40 concurrent writes run on that node; 20 connections read uncached pages at least 5× as fast
 * as one; two nodes write at least 1.5× as fast as one. Real processes, real PostgreSQL, real HTTP.
 */
import { describe, expect, it } from "vitest";
import { runDbLatencyBench } from "../bench/db-latency.ts";

describe("PostgreSQL behind 5 ms of network latency", () => {
  it("healthz stays fast under writes, reads overlap, writes scale with nodes", { timeout: 300_000 }, async () => {
    const figures = await runDbLatencyBench({ delayMs: 5, seconds: 4, reviews: 400 });
    console.log(JSON.stringify(figures));
    expect(figures.healthz.samples).toBeGreaterThan(100);
    expect(figures.healthz.votesPerSec).toBeGreaterThan(0);
    expect(figures.healthz.p99).toBeLessThan(25);
    expect(figures.reads.ratio).toBeGreaterThanOrEqual(5);
    expect(figures.writes.failed).toBe(0);
    expect(figures.writes.ratio).toBeGreaterThanOrEqual(1.5);
  });
});
