export { voteAction as action, postOnlyLoader as loader } from "~/lib/writes.server";
