export { listQuestionsLoader as loader } from "~/lib/storefront.server";
export { askQuestionAction as action } from "~/lib/writes.server";
