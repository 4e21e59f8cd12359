export { importOrdersAction as action, postOnlyLoader as loader } from "~/lib/writes.server";
