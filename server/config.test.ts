import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { databaseLabel, loadConfig, loopbackRequestsAllowed } from "./config.ts";

const env = (vars: Record<string, string>) => ({ NODE_ENV: "test", ...vars }) as NodeJS.ProcessEnv;

describe("loadConfig: response cache size", () => {
  it("defaults to 256 MiB and reads RESPONSE_CACHE_MB", () => {
    expect(loadConfig(env({})).RESPONSE_CACHE_MB).toBe(256);
    expect(loadConfig(env({ RESPONSE_CACHE_MB: "64" })).RESPONSE_CACHE_MB).toBe(64);
  });

  it.each(["0", "-5", "1.5", "lots"])("refuses RESPONSE_CACHE_MB=%s with a message naming it", (value) => {
    expect(() => loadConfig(env({ RESPONSE_CACHE_MB: value }))).toThrow(/RESPONSE_CACHE_MB/);
  });
});

describe("loadConfig: trusted proxies", () => {
  it("defaults to none and accepts addresses, ranges and names", () => {
    expect(loadConfig(env({})).TRUSTED_PROXIES).toBe("");
    expect(loadConfig(env({ TRUSTED_PROXIES: "loopback, 10.0.0.0/8, 192.0.2.1" })).TRUSTED_PROXIES).toBe("loopback, 10.0.0.0/8, 192.0.2.1");
  });

  it.each(["proxy.example", "10.0.0.0/99", "localhost"])("refuses TRUSTED_PROXIES=%s with a message naming it", (value) => {
    expect(() => loadConfig(env({ TRUSTED_PROXIES: value }))).toThrow(/TRUSTED_PROXIES/);
  });
});

describe("loadConfig: read worker threads", () => {
  it("defaults to one per core beyond the first, at most 4, and reads READ_WORKERS", () => {
    expect(loadConfig(env({})).READ_WORKERS).toBe(Math.min(Math.max(availableParallelism() - 1, 0), 4));
    expect(loadConfig(env({ READ_WORKERS: "0" })).READ_WORKERS).toBe(0);
    expect(loadConfig(env({ READ_WORKERS: "3" })).READ_WORKERS).toBe(3);
  });

  it.each(["-1", "1.5", "many", "65"])("refuses READ_WORKERS=%s with a message naming it", (value) => {
    expect(() => loadConfig(env({ READ_WORKERS: value }))).toThrow(/READ_WORKERS/);
  });
});

describe("loadConfig: loopback requests (insecure webhook receivers)", () => {
  it("are off by default and on only with ALLOW_INSECURE_WEBHOOKS=1", () => {
    expect(loadConfig(env({})).ALLOW_INSECURE_WEBHOOKS).toBe("0");
    expect(loadConfig(env({ ALLOW_INSECURE_WEBHOOKS: "1" })).ALLOW_INSECURE_WEBHOOKS).toBe("1");
  });

  it.each(["yes", "true", "2"])("refuses ALLOW_INSECURE_WEBHOOKS=%s with a message naming it", (value) => {
    expect(() => loadConfig(env({ ALLOW_INSECURE_WEBHOOKS: value }))).toThrow(/ALLOW_INSECURE_WEBHOOKS/);
  });

  it("ALLOW_LOOPBACK_REQUESTS=1 or its alias ALLOW_INSECURE_WEBHOOKS=1 turns loopback requests on; off by default", () => {
    expect(loopbackRequestsAllowed(loadConfig(env({})))).toBe(false);
    expect(loopbackRequestsAllowed(loadConfig(env({ ALLOW_LOOPBACK_REQUESTS: "1" })))).toBe(true);
    expect(loopbackRequestsAllowed(loadConfig(env({ ALLOW_INSECURE_WEBHOOKS: "1" })))).toBe(true);
    expect(loopbackRequestsAllowed(loadConfig(env({ ALLOW_LOOPBACK_REQUESTS: "0" })))).toBe(false);
    expect(() => loadConfig(env({ ALLOW_LOOPBACK_REQUESTS: "yes" }))).toThrow(/ALLOW_LOOPBACK_REQUESTS/);
  });
});

describe("loadConfig: WEBHOOK_LEASE_MS (docs/webhooks.md, Delivery)", () => {
  it("is a minute by default and takes whole milliseconds from 20,000", () => {
    expect(loadConfig(env({})).WEBHOOK_LEASE_MS).toBe(60_000);
    expect(loadConfig(env({ WEBHOOK_LEASE_MS: "20000" })).WEBHOOK_LEASE_MS).toBe(20_000);
  });

  it.each(["5000", "19999", "1.5e4", "a minute", "-1", "3600001"])("refuses WEBHOOK_LEASE_MS=%s with a message naming it", (value) => {
    expect(() => loadConfig(env({ WEBHOOK_LEASE_MS: value }))).toThrow(/WEBHOOK_LEASE_MS/);
  });
});

describe("loadConfig: DATABASE_URL (PostgreSQL, issue #26)", () => {
  it("is the location every module opens, and messages show it without credentials", () => {
    const c = loadConfig(env({ DATABASE_URL: "postgres://chorus:s3cret@db.internal:5432/chorus" }));
    expect(c.DATABASE_PATH).toBe("postgres://chorus:s3cret@db.internal:5432/chorus");
    expect(databaseLabel(c.DATABASE_PATH)).toBe("postgres://db.internal:5432/chorus");
  });

  it("leaves the SQLite file when unset, and refuses a URL of another scheme", () => {
    expect(loadConfig(env({ DATABASE_PATH: "/tmp/x.sqlite" })).DATABASE_PATH).toBe("/tmp/x.sqlite");
    expect(() => loadConfig(env({ DATABASE_URL: "mysql://db/chorus" }))).toThrow(/DATABASE_URL/);
  });
});
