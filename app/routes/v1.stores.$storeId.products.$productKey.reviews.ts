export { listReviewsLoader as loader } from "~/lib/storefront.server";
export { submitReviewAction as action } from "~/lib/writes.server";
