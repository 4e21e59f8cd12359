/**
 * Vitest globalSetup of `npm run test:postgres` (vitest.postgres.config.ts): one throwaway PostgreSQL cluster
 * for the whole run (test/postgres.ts), its template database migrated once, and env CHORUS_TEST_POSTGRES_URL
 * (the cluster's admin URL) for the test workers, so every `startTestServer()` (test/server.ts) runs on its own
 * copy of the template. When CHORUS_TEST_POSTGRES_URL is already set, that cluster is used and left running.
 */
import { ensureTemplate, startPostgres } from "./postgres.ts";

export default async function setup(): Promise<(() => Promise<void>) | void> {
  const external = process.env.CHORUS_TEST_POSTGRES_URL;
  if (external) {
    await ensureTemplate(external);
    return;
  }
  const cluster = await startPostgres();
  process.env.CHORUS_TEST_POSTGRES_URL = cluster.adminUrl;
  try {
    await ensureTemplate(cluster.adminUrl);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return () => cluster.stop();
}
