/**
 * A worker pool thread module for tests (server/http/read-workers.test.ts): the real one
 * (server/http/read-worker-thread.ts), except that each answer is handed back 300 ms after it was computed,
 * so a test can commit while an answer read before the commit is on its way.
 */
import readTask from "../server/http/read-worker-thread.ts";
import type { ReadJob } from "../server/http/read-workers.ts";

const DELAY_MS = 300;

export default async function slowReadTask(job: ReadJob) {
  const answer = await readTask(job);
  await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
  return answer;
}
