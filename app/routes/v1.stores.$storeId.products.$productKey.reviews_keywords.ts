export { reviewsKeywordsLoader as loader } from "~/lib/ai.server";
