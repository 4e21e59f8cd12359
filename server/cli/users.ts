/**
 * `npm run users -- add --email <e-mail> --store <storeId> [--store <storeId> ...] [--password <password>]`
 *   Creates a merchant user with access to the stores (or, when the e-mail exists, adds the stores
 *   to it). Without --password a random password is generated and printed once.
 * `npm run users -- password --email <e-mail> [--password <password>]`: sets a new password (printed when
 *   generated) and ends every admin session of that user.
 *
 * Exit codes: 0 done, 1 refused (unknown store, taken e-mail, short password), 2 usage.
 */
import { parseArgs } from "node:util";
import { generatePassword } from "../admin/admin.service.ts";
import { loadConfig } from "../config.ts";
import { isApiError } from "../contract/errors.ts";
import { createServices } from "../services.ts";

const USAGE = `usage:
  npm run users -- add --email <e-mail> --store <storeId> [--store <storeId> ...] [--password <password>]
  npm run users -- password --email <e-mail> [--password <password>]`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { email: { type: "string" }, store: { type: "string", multiple: true }, password: { type: "string" }, help: { type: "boolean", default: false } },
  });
  const command = positionals[0];
  if (values.help || !values.email || (command === "add" && !values.store?.length) || (command !== "add" && command !== "password")) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const services = createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH });
  const generated = values.password === undefined;
  const password = values.password ?? generatePassword();
  try {
    if (command === "password") {
      const { sessionsEnded } = await services.admin.setPassword(values.email, password);
      console.log(`Password of ${values.email} changed; ${sessionsEnded} session${sessionsEnded === 1 ? "" : "s"} signed out.`);
    } else if (services.admin.userExists(values.email)) {
      for (const s of values.store!) services.admin.addMembership(values.email, s);
      console.log(`${values.email} already exists: added access to ${values.store!.join(", ")} (password unchanged).`);
      return 0;
    } else {
      await services.admin.createUser({ email: values.email, password, storeIds: values.store! });
      console.log(`Created ${values.email} with access to ${values.store!.join(", ")}.`);
    }
    if (generated) console.log(`Password (shown once, store it safely): ${password}`);
    return 0;
  } catch (error) {
    if (isApiError(error)) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    services.close();
  }
}

main().then((code) => process.exit(code), (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
