/**
 * Who may do what in a store's admin (docs/admin.md "Who may do what"). Every membership is an owner or a
 * member (`ROLES`). Members use the store's admin; the actions below are an owner's, because
 * each of them hands out or changes a way into the store: its team, its shop-platform connection, its API
 * keys, its webhook subscriptions, its loyalty platform secret. The services and the admin actions check
 * them on the server (`requireOwner`), and the admin hides their controls from members.
 */
import { ApiError } from "../contract/errors.ts";

/** Roles of a store membership: owners manage the team, members use the store's admin. */
export const ROLES = ["owner", "member"] as const;
export type Role = (typeof ROLES)[number];

/** The owner-only actions and how the refusal names them ("Only an owner of this store can …"). */
export const OWNER_ACTIONS = {
  team: "manage its team",
  platform: "change its shop-platform connection",
  "api-keys": "create or revoke its API keys",
  webhooks: "change its webhook subscriptions",
  "loyalty-program": "turn its loyalty program on or off or generate its platform secret",
  marketing: "connect or disconnect its e-mail marketing tool (Klaviyo)",
} as const;
export type OwnerAction = keyof typeof OWNER_ACTIONS;

/** Whether `role` may take the owner-only `action` (only owners may). */
export const mayTake = (role: Role | undefined, _action: OwnerAction): boolean => role === "owner";

/**
 * Refuse an owner-only action to anyone but an owner of the store.
 * @throws ApiError 403 `forbidden` naming the action, when `role` is not "owner" (a member, or no membership).
 */
export function requireOwner(role: Role | undefined, action: OwnerAction): void {
  if (!mayTake(role, action)) throw new ApiError(403, `Only an owner of this store can ${OWNER_ACTIONS[action]}.`, "forbidden");
}
