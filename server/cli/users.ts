/**
 * `npm run users -- add --email <e-mail> [--store <storeId> ...] [--password <password>] [--operator]`
 *   Creates a merchant user who owns the stores (or, when the e-mail exists, adds the stores to it).
 *   Without --password a random password is generated and printed once. `--operator` makes the user an
 *   instance operator, who can create stores from the admin even while sign-up is closed (docs/admin.md);
 *   an operator needs no store.
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
  npm run users -- add --email <e-mail> --store <storeId> [--store <storeId> ...] [--password <password>] [--operator]
  npm run users -- add --email <e-mail> --operator [--password <password>]
  npm run users -- password --email <e-mail> [--password <password>]`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: "string" },
      store: { type: "string", multiple: true },
      password: { type: "string" },
      operator: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !values.email || (command === "add" && !values.store?.length && !values.operator) || (command !== "add" && command !== "password")) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH });
  const generated = values.password === undefined;
  const password = values.password ?? generatePassword();
  try {
    if (command === "password") {
      const { sessionsEnded } = await services.admin.setPassword(values.email, password);
      console.log(`Password of ${values.email} changed; ${sessionsEnded} session${sessionsEnded === 1 ? "" : "s"} signed out.`);
    } else if (await services.admin.userExists(values.email)) {
      const storeIds = values.store ?? [];
      for (const s of storeIds) await services.admin.addMembership(values.email, s);
      if (values.operator) await services.signup.setOperator(values.email, true);
      console.log(
        `${values.email} already exists: ${[storeIds.length ? `added access to ${storeIds.join(", ")}` : "", values.operator ? "now an operator" : ""].filter(Boolean).join(", ")} (password unchanged).`,
      );
      return 0;
    } else {
      const storeIds = values.store ?? [];
      await services.admin.createUser({ email: values.email, password, storeIds });
      if (values.operator) await services.signup.setOperator(values.email, true);
      console.log(`Created ${values.email}${storeIds.length ? ` with access to ${storeIds.join(", ")}` : ""}${values.operator ? " as an operator" : ""}.`);
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
    await services.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
