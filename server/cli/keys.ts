/**
 * Enterprise API keys (docs/api.md, Authentication; docs/surveys.md, API keys):
 *
 *   npm run keys -- create --store <storeId> [--name NAME]   issue a key; prints it ONCE (only its hash is stored)
 *   npm run keys -- list [--store <storeId>]                 keys (ID, prefix, store, dates), never the key itself
 *   npm run keys -- revoke <apiKeyId>                        revoke a key at once
 *
 * Uses the server's database (DATABASE_URL when set, else DATABASE_PATH). Exit codes: 0 done, 1 not found, 2 usage.
 */
import { parseArgs } from "node:util";
import { loadConfig, databaseLabel } from "../config.ts";
import { createServices } from "../services.ts";

const USAGE = `usage:
  npm run keys -- create --store <storeId> [--name NAME]
  npm run keys -- list [--store <storeId>]
  npm run keys -- revoke <apiKeyId>`;

/** Run the CLI with `argv` (without node and script). @returns the exit code. */
export async function runKeysCli(argv: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { store: { type: "string" }, name: { type: "string" }, help: { type: "boolean", default: false } } });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    (values.help ? out : err)(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH });
  try {
    switch (command) {
      case "create": {
        if (!values.store) return (err(USAGE), 2);
        if (!(await services.stores.get(values.store))) return (err(`No store ${values.store} in ${databaseLabel(config.DATABASE_PATH)}`), 1);
        const { key, info } = await services.apiKeys.create(values.store, values.name ?? "API key");
        out(`Created API key ${info.apiKeyId} ("${info.name}") for store ${info.storeId}.`);
        out("Copy it now: it is shown only this once (only its hash is stored).");
        out(`  username (subscriber ID): ${info.storeId}`);
        out(`  password (API key):       ${key}`);
        return 0;
      }
      case "list": {
        const stores = values.store ? [values.store] : (await services.stores.list()).map((s) => s.storeId);
        const keys = [];
        for (const id of stores) keys.push(...(await services.apiKeys.list(id)));
        if (!keys.length) out("No API keys.");
        for (const k of keys) {
          out(
            `${k.apiKeyId}  ${k.keyPrefix}…  store ${k.storeId}  "${k.name}"  created ${k.dateCreated}${k.dateLastUsed ? `  last used ${k.dateLastUsed}` : ""}${k.dateRevoked ? `  REVOKED ${k.dateRevoked}` : ""}`,
          );
        }
        return 0;
      }
      case "revoke": {
        const id = rest[0];
        if (!id) return (err(USAGE), 2);
        let revoked = false;
        for (const s of await services.stores.list()) if (await services.apiKeys.revoke(s.storeId, id)) revoked = true;
        if (!revoked) return (err(`No active API key ${id}`), 1);
        out(`Revoked API key ${id}.`);
        return 0;
      }
      default:
        err(USAGE);
        return 2;
    }
  } finally {
    await services.close();
  }
}

if (import.meta.main) process.exitCode = await runKeysCli(process.argv.slice(2));
