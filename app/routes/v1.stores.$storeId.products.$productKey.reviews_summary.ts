export { reviewsSummaryLoader as loader } from "~/lib/ai.server";
