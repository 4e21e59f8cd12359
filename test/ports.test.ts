/** The harness's port choice: never a port `fetch` refuses ("bad port"), so a test server stays reachable. */
import { describe, expect, it } from "vitest";
import { freePort } from "./ports.ts";

describe("freePort", () => {
  it("never picks a port fetch blocks (3659 in the Varnish tests' 3600-3699 range failed a CI run)", async () => {
    await expect(freePort(3659, 3659)).rejects.toThrow(/No free port/);
    for (let i = 0; i < 20; i++) expect(await freePort(3658, 3660)).not.toBe(3659);
    // The rule it follows: fetch refuses the port before connecting.
    const refused = await fetch("http://127.0.0.1:3659/").catch((e: Error) => e);
    expect(String((refused as Error & { cause?: unknown }).cause)).toMatch(/bad port/);
  });
});
