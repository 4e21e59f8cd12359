/**
 * VIP tier maths (docs/loyalty.md, Earning; docs/loyalty.md, Statuses and rules): pure functions over a store's tiers, which the repo lists
 * sorted by `points_threshold` ascending. A customer is placed by lifetime earned points, never below
 * their minimum tier; only enrolled customers have a tier.
 */
import type { CustomerRow, VipTierRow } from "./loyalty.repo.ts";

/** The tier with this ID among `tiers`, or undefined (also for a null ID). */
export const tierById = (tiers: VipTierRow[], id: string | null): VipTierRow | undefined => (id ? tiers.find((t) => t.vip_tier_id === id) : undefined);

/**
 * The tier a customer with `lifetime` earned points belongs to: the highest whose threshold they reached,
 * never below `minimumTierId`. Undefined when they reach none and have no minimum.
 */
export function tierFor(tiers: VipTierRow[], lifetime: number, minimumTierId: string | null): VipTierRow | undefined {
  let tier: VipTierRow | undefined;
  for (const t of tiers) if (t.points_threshold <= lifetime) tier = t; // tiers are sorted by threshold
  const minimum = tierById(tiers, minimumTierId);
  if (minimum && (!tier || minimum.points_threshold > tier.points_threshold)) tier = minimum;
  return tier;
}

/** Earning multiplier of the customer's current tier (1 without a tier, and for customers not enrolled). */
export function multiplierOf(c: CustomerRow, tiers: VipTierRow[]): number {
  return c.status === "enrolled" ? (tierById(tiers, c.vip_tier_id)?.points_multiplier ?? 1) : 1;
}

/** Whether a rule limited to `minimumTierId` (null: open to all) is open to the customer: enrolled, in that tier or a higher one. */
export function tierAllows(c: CustomerRow, tiers: VipTierRow[], minimumTierId: string | null): boolean {
  if (!minimumTierId) return true;
  const needed = tierById(tiers, minimumTierId);
  const has = c.status === "enrolled" ? tierById(tiers, c.vip_tier_id) : undefined;
  return !!needed && !!has && has.points_threshold >= needed.points_threshold;
}
