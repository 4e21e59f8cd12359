import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoFromMs } from "./iso-date.ts";

const MAX_DATE_MS = 8.64e15;

describe("isoFromMs", () => {
  it("writes exactly what Date.prototype.toISOString writes, over Date's whole range", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_DATE_MS, max: MAX_DATE_MS }), (ms) => {
        expect(isoFromMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it("is exact at day, second and millisecond edges and before 1970", () => {
    for (const ms of [
      0,
      -1,
      1,
      999,
      1000,
      86_399_999,
      86_400_000,
      -86_400_000,
      -86_400_001,
      1_795_000_000_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
    ]) {
      expect(isoFromMs(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("throws the RangeError toISOString throws outside Date's range", () => {
    expect(() => isoFromMs(MAX_DATE_MS + 1)).toThrow(RangeError);
    expect(() => isoFromMs(Number.NaN)).toThrow(RangeError);
  });
});
