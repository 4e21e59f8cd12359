export { listQuestionsLoader as loader } from "~/lib/storefront.server";
