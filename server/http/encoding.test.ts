import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compress, ifNoneMatchHits, negotiateCoding } from "./encoding.ts";

describe("negotiateCoding", () => {
  it("prefers brotli when the client weighs codings equally (Chromium's header)", () => {
    expect(negotiateCoding("gzip, deflate, br, zstd")).toBe("br");
  });

  it("follows the client's q-values and refusals", () => {
    expect(negotiateCoding("br;q=0.5, gzip")).toBe("gzip");
    expect(negotiateCoding("gzip")).toBe("gzip");
    expect(negotiateCoding("br;q=0, gzip;q=0")).toBeNull();
    expect(negotiateCoding("deflate")).toBeNull();
  });

  it("a missing or empty header means identity", () => {
    expect(negotiateCoding(undefined)).toBeNull();
    expect(negotiateCoding("")).toBeNull();
  });
});

describe("compress", () => {
  it.each(["br", "gzip"] as const)("%s round-trips the body", (coding) => {
    const body = Buffer.from(JSON.stringify({ reviews: Array.from({ length: 50 }, (_, i) => ({ i, text: "Works well, would buy again" })) }));
    const out = compress(body, coding);
    expect(out.length).toBeLessThan(body.length / 4);
    expect((coding === "br" ? brotliDecompressSync(out) : gunzipSync(out)).equals(body)).toBe(true);
  });
});

describe("ifNoneMatchHits (weak comparison)", () => {
  it("matches a tag whether either side is weak, in a list, or *", () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits("*", '"abc"')).toBe(true);
  });

  it("does not match another tag or a missing header", () => {
    expect(ifNoneMatchHits('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
    expect(ifNoneMatchHits("", '"abc"')).toBe(false);
  });
});
