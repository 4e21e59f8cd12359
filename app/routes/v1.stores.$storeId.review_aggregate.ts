export { reviewAggregateLoader as loader } from "~/lib/storefront.server";
