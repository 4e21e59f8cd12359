import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answeredQuestionInputSchema, answeredQuestionSchema, npsCategoryOf, profileAnswerSchema } from "./surveys.ts";

const id = "a0000000-0000-4000-8000-000000000001";
const daysIn = (month: number, year: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

describe("answered-question schemas (docs/surveys.md, Survey response fields), property-based", () => {
  it("an NPS answer is valid exactly when the score is an integer 0-10 and the category matches it", () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 15 }), fc.constantFrom("promoter", "passive", "detractor"), (score, category) => {
        const ok = answeredQuestionSchema.safeParse({ id, text: "How likely…", type: "nps", answer: score, answerNpsCategory: category }).success;
        const expected = score >= 0 && score <= 10 && category === (score >= 9 ? "promoter" : score >= 7 ? "passive" : "detractor");
        expect(ok).toBe(expected);
      }),
    );
  });

  it("npsCategoryOf follows 9-10 promoter, 7-8 passive, 0-6 detractor", () => {
    expect([0, 6, 7, 8, 9, 10].map(npsCategoryOf)).toEqual(["detractor", "detractor", "passive", "passive", "promoter", "promoter"]);
  });

  it("date-components is valid exactly for day 1-31, month 1-12, year 1900-2100 forming a calendar date", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 33 }), fc.integer({ min: -1, max: 14 }), fc.integer({ min: 1890, max: 2110 }), (day, month, year) => {
        const ok = profileAnswerSchema.safeParse({ type: "date-components", value: { day, month, year } }).success;
        const inRange = day >= 1 && day <= 31 && month >= 1 && month <= 12 && year >= 1900 && year <= 2100;
        expect(ok).toBe(inRange && day <= daysIn(month, year));
      }),
    );
  });

  it("five-point and star accept exactly the integers 1-5", () => {
    fc.assert(
      fc.property(fc.constantFrom("five-point", "star"), fc.oneof(fc.integer({ min: -3, max: 8 }), fc.double({ noNaN: true, min: -3, max: 8 })), (type, answer) => {
        const ok = answeredQuestionSchema.safeParse({ id, text: "Rate", type, answer }).success;
        expect(ok).toBe(Number.isInteger(answer) && answer >= 1 && answer <= 5);
      }),
    );
  });

  it("the stored shape requires text, answerNpsCategory and profileQuestionId; the input shape does not", () => {
    const nps = { id, type: "nps", answer: 10 };
    expect(answeredQuestionSchema.safeParse({ ...nps, answerNpsCategory: "promoter" }).success).toBe(false);
    expect(answeredQuestionSchema.safeParse({ ...nps, text: "Q" }).success).toBe(false);
    expect(answeredQuestionInputSchema.safeParse(nps).success).toBe(true);
    const profile = { id, type: "profile", answer: { type: "single-value", value: "Order" } };
    expect(answeredQuestionSchema.safeParse({ ...profile, text: "Q" }).success).toBe(false);
    expect(answeredQuestionInputSchema.safeParse(profile).success).toBe(true);
  });

  it("every profile variant requires its value shape", () => {
    expect(profileAnswerSchema.safeParse({ type: "multi-value", value: "TV" }).success).toBe(false);
    expect(profileAnswerSchema.safeParse({ type: "single-value", value: ["TV"] }).success).toBe(false);
    expect(profileAnswerSchema.safeParse({ type: "location", value: { countryCode: "gb" } }).success).toBe(false);
    expect(profileAnswerSchema.safeParse({ type: "location", value: { countryCode: "GB", zoneCode: "SCT" } }).success).toBe(true);
  });
});
