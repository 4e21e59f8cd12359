/**
 * GET /demo/products/{platform}-{id}: a demo product page with the Chorus widgets (plain HTML).
 * A product key that is not the demo store's platform prefix plus a known product answers a 404 page.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoNotFoundPage, demoProductPage, htmlResponse } from "~/lib/demo-pages.server";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";

export const loader = ({ params, context }: LoaderFunctionArgs) => {
  const { stores } = context.services;
  const store = stores.get(DEMO_STORE_ID);
  const productKey = params.productKey ?? "";
  const prefix = `${store?.platform ?? ""}-`;
  const product = store && productKey.startsWith(prefix) ? stores.getProduct(DEMO_STORE_ID, productKey.slice(prefix.length)) : undefined;
  if (!product) return htmlResponse(demoNotFoundPage(), 404);
  const groupName = product.groupId ? stores.getGroup(DEMO_STORE_ID, product.groupId)?.name : undefined;
  return htmlResponse(demoProductPage(DEMO_STORE_ID, { productKey, name: product.name, groupName }));
};
