/**
 * Legal-policy links of the loyalty program (issue #19 finding 10): an absolute http(s) URL, or a path
 * that a browser resolves on the store's own site. Checked with a WHATWG URL parse, not a regex.
 */
import { describe, expect, it } from "vitest";
import { isSitePath, legalPoliciesInput } from "./loyalty.ts";

const valid = {
  acceptTermsAndJoinProgramButtonText: "Join",
  policySentenceHtml: "I accept",
  policySentenceTemplate: "I accept the {termsAndConditions} and the {privacyPolicy}",
  privacyPolicyUrl: "/privacy",
  termsAndConditionsUrl: "https://shop.example/terms",
  version: "1",
};

const OFF_SITE = [
  "/\\evil.example",
  "//evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\\evil.example",
  "javascript:alert(1)",
  "java\tscript:alert(1)",
  "terms",
  "",
];

describe("isSitePath", () => {
  it.each(OFF_SITE)("refuses %j", (path) => expect(isSitePath(path)).toBe(false));
  it.each(["/terms", "/%5Cevil", "/pages/privacy?x=1#top", "/a/../b"])("accepts %j", (path) => expect(isSitePath(path)).toBe(true));
});

describe("legalPoliciesInput: privacyPolicyUrl and termsAndConditionsUrl", () => {
  it.each(OFF_SITE)("refuses %j with a message naming the field", (url) => {
    for (const field of ["privacyPolicyUrl", "termsAndConditionsUrl"] as const) {
      const result = legalPoliciesInput.safeParse({ ...valid, [field]: url });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: [field], message: expect.stringMatching(new RegExp(`^${field} must be an http\\(s\\) URL or a path`)) });
    }
  });

  it("accepts site paths (including an encoded backslash) and absolute http(s) URLs", () => {
    for (const url of ["/terms", "/%5Cevil", "https://policies.example/terms", "http://shop.example/p"]) {
      expect(legalPoliciesInput.safeParse({ ...valid, privacyPolicyUrl: url }).success).toBe(true);
    }
  });
});
