/**
 * `kindOf` (docs/loyalty.md "Points history"): every ledger writer's award key, type and order give the transaction's
 * machine kind, also for rows written before migration 109 (no details).
 */
import { describe, expect, it } from "vitest";
import { kindOf } from "./shapes.ts";

const row = (type: "earning" | "redemption" | "adjustment" | "expiry", award_key: string | null, order_id: string | null = null) => ({ type, award_key, order_id });

describe("kindOf", () => {
  it("names each writer's transactions", () => {
    expect(kindOf(row("earning", "sign-up"))).toBe("sign-up");
    expect(kindOf(row("earning", "review:r-1"))).toBe("review");
    expect(kindOf(row("earning", "birthday:2027"))).toBe("birthday");
    expect(kindOf(row("earning", "referral:CODE-1"))).toBe("referral");
    expect(kindOf(row("earning", null, "1001"))).toBe("order");
    expect(kindOf(row("redemption", null))).toBe("redemption");
    expect(kindOf(row("expiry", "expiry:1796662291343"))).toBe("expiry");
    expect(kindOf(row("adjustment", "order-cancelled:1001"))).toBe("order-cancelled");
    expect(kindOf(row("adjustment", "order-refund:77"))).toBe("order-refunded");
    expect(kindOf(row("adjustment", "referral-reversed:CODE-1"))).toBe("referral-reversed");
    expect(kindOf(row("adjustment", null))).toBe("adjustment");
  });
  it("an award key that only begins like a known one is not taken for it", () => {
    expect(kindOf(row("earning", "sign-up-bonus"))).toBe("adjustment");
    expect(kindOf(row("adjustment", "referral-reversed:X"))).not.toBe("referral");
  });
});
