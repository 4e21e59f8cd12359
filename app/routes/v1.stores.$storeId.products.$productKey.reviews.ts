export { listReviewsLoader as loader } from "~/lib/storefront.server";
