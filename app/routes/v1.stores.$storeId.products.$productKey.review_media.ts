export { listReviewMediaLoader as loader } from "~/lib/storefront.server";
