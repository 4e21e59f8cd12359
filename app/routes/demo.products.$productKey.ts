/**
 * GET /demo/products/{platform}-{id}: a demo product page with the Chorus widgets (plain HTML). The star
 * rating, the reviews (with the product's JSON-LD) and the questions are server-rendered snippets
 * (app/lib/snippets.server.ts), as a merchant's server includes them (docs/snippets.md): they show without JavaScript.
 * `?snippets=off` gives the page with the plain tags only, every widget rendered in the browser (its loading and
 * error states can be seen there).
 * A product key that is not the demo store's platform prefix plus a known product answers a 404 page. While the demo
 * data is imported, both carry the import note (app/lib/demo-pages.server.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { demoNotFoundPage, demoProductPage, htmlResponse } from "~/lib/demo-pages.server";
import { renderSnippet } from "~/lib/snippets.server";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";

export const loader = async ({ params, context, request: pageRequest }: LoaderFunctionArgs) => {
  const { stores } = context.services;
  const store = await stores.get(DEMO_STORE_ID);
  const productKey = params.productKey ?? "";
  const prefix = `${store?.platform ?? ""}-`;
  const product = store && productKey.startsWith(prefix) ? await stores.getProduct(DEMO_STORE_ID, productKey.slice(prefix.length)) : undefined;
  const importing = context.services.demoImport.current();
  if (!product) return htmlResponse(demoNotFoundPage(importing), 404);
  const groupName = product.groupId ? (await stores.getGroup(DEMO_STORE_ID, product.groupId))?.name : undefined;
  if (new URL(pageRequest.url).searchParams.get("snippets") === "off") return htmlResponse(demoProductPage(DEMO_STORE_ID, { productKey, name: product.name, groupName }, {}, importing));
  const request = { params: { storeId: DEMO_STORE_ID, productKey }, publicOrigin: context.publicOrigin, lang: "en" };
  const [starRating, reviews, questions] = await Promise.all([
    renderSnippet(context.services, { ...request, widget: "star-rating", href: "#reviews" }),
    renderSnippet(context.services, { ...request, widget: "reviews" }),
    renderSnippet(context.services, { ...request, widget: "questions" }),
  ]);
  return htmlResponse(demoProductPage(DEMO_STORE_ID, { productKey, name: product.name, groupName }, { starRating: starRating.html, reviews: reviews.html, questions: questions.html }, importing));
};
