// @vitest-environment happy-dom
/** The widget's visitor ID (issue #19 finding 5): only what the server signed and answered is kept and sent. */
import { beforeEach, describe, expect, it } from "vitest";
import { rememberVisitorId, visitorId } from "./visitor.ts";

beforeEach(() => localStorage.clear());

describe("visitor ID", () => {
  it("is null before the first vote: the widget never makes one up", () => {
    expect(visitorId()).toBeNull();
    expect(localStorage.length).toBe(0);
  });

  it("keeps the signed ID a vote answered, and ignores an answer without one", () => {
    rememberVisitorId("0b7f6c1e-3d1a-4f7e-9a55-1f3c2b4d5e6f.sig");
    rememberVisitorId(undefined);
    rememberVisitorId(42);
    expect(visitorId()).toBe("0b7f6c1e-3d1a-4f7e-9a55-1f3c2b4d5e6f.sig");
  });
});
