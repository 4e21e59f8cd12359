/**
 * GET /demo: the demo storefront's index, a carousel of the store's recent reviews, the 24 products of the demo store with the most
 * published reviews, the 6 with the most published questions and a link to the loyalty demo (plain HTML, see app/lib/demo-pages.server.ts);
 * while the demo data is imported, a note says how far it is ("Demo data importing, N of M reviews").
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoIndexPage, htmlResponse } from "~/lib/demo-pages.server";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";

export const loader = async ({ context }: LoaderFunctionArgs) => {
  const { stores } = context.services;
  const store = await stores.get(DEMO_STORE_ID);
  const products = store ? await stores.topProducts(DEMO_STORE_ID, 24) : [];
  const questionProducts = store ? await context.services.questions.productsWithMostQuestions(DEMO_STORE_ID, 6) : [];
  return htmlResponse(demoIndexPage(DEMO_STORE_ID, products, store?.platform ?? "shopify", questionProducts, context.services.demoImport.current()));
};
