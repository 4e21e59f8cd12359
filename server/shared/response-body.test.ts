import { describe, expect, it } from "vitest";
import { responseBody, withResponseBody } from "./response-body.ts";

describe("responseBody", () => {
  it("gives back the bytes attached to a Response, without consuming its body", async () => {
    const bytes = Buffer.from('{"a":"é"}');
    const response = withResponseBody(new Response(bytes), bytes);
    expect(responseBody(response)?.equals(bytes)).toBe(true);
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('{"a":"é"}');
  });

  it("is undefined for a Response made elsewhere, so callers read the stream", () => {
    expect(responseBody(new Response("x"))).toBeUndefined();
    expect(responseBody(new Response(null, { status: 304 }))).toBeUndefined();
  });
});
