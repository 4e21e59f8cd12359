import { describe, expect, it } from "vitest";
import { responseText, withResponseText } from "./response-text.ts";

describe("responseText", () => {
  it("gives back the text attached to a Response, without consuming its body", async () => {
    const response = withResponseText(new Response('{"a":1}'), '{"a":1}');
    expect(responseText(response)).toBe('{"a":1}');
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('{"a":1}');
  });

  it("is undefined for a Response made elsewhere, so callers read the stream", () => {
    expect(responseText(new Response("x"))).toBeUndefined();
    expect(responseText(new Response(null, { status: 304 }))).toBeUndefined();
  });
});
