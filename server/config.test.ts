import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";

describe("loadConfig: response cache size", () => {
  it("defaults to 256 MiB and reads RESPONSE_CACHE_MB", () => {
    expect(loadConfig({}).RESPONSE_CACHE_MB).toBe(256);
    expect(loadConfig({ RESPONSE_CACHE_MB: "64" }).RESPONSE_CACHE_MB).toBe(64);
  });

  it.each(["0", "-5", "1.5", "lots"])("refuses RESPONSE_CACHE_MB=%s with a message naming it", (value) => {
    expect(() => loadConfig({ RESPONSE_CACHE_MB: value })).toThrow(/RESPONSE_CACHE_MB/);
  });
});
