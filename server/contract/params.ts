/**
 * Path parameters of the storefront and enterprise operations (docs/api.md, Endpoints and scopes), with the descriptions
 * the OpenAPI documents show. Values are checked against the store's data by the services (404).
 */
import { z } from "zod";

const id = (description: string) => z.string().min(1).max(200).meta({ description });

export const storeIdParam = id("The store's subscriber ID (a UUID).");
export const productKeyParam = id("The product: its platform and the platform's product ID, e.g. `shopify-1078`.");
export const groupIdParam = id("The review group (collection) ID.");

/** Path parameters of the three review scopes (docs/api.md, Endpoints and scopes): product, review group, store. */
export const SCOPE_PARAMS = {
  product: z.object({ storeId: storeIdParam, productKey: productKeyParam }),
  group: z.object({ storeId: storeIdParam, groupId: groupIdParam }),
  store: z.object({ storeId: storeIdParam }),
} as const;
export type ReviewScopeName = keyof typeof SCOPE_PARAMS;
