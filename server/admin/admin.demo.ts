/**
 * Demo seeder (issue 7 item 1): the merchant user `demo@chorus.test`, owner of the demo store and instance
 * operator (it can create stores from the admin, issue #21), with the password DEMO_ADMIN_PASSWORD when
 * set, otherwise a random one printed once to the start-up log, with the command that sets a new one
 * (`npm run users -- password`, server/cli/users.ts).
 */
import type { DemoSeeder } from "../demo/seeder.ts";
import { generatePassword } from "./admin.service.ts";

export const DEMO_ADMIN_EMAIL = "demo@chorus.test";

/** The seeder for the demo store `storeId` (a factory, so this module does not import demo.ts back). */
export const adminDemoSeeder = (storeId: string): DemoSeeder => ({
  name: "admin-user",
  async run({ services, config, log, notice = log }) {
    if (await services.admin.userExists(DEMO_ADMIN_EMAIL)) {
      await services.admin.addMembership(DEMO_ADMIN_EMAIL, storeId);
      await services.signup.setOperator(DEMO_ADMIN_EMAIL, true);
      return;
    }
    const password = config.DEMO_ADMIN_PASSWORD ?? generatePassword();
    await services.admin.createUser({ email: DEMO_ADMIN_EMAIL, password, storeIds: [storeId] });
    await services.signup.setOperator(DEMO_ADMIN_EMAIL, true);
    if (config.DEMO_ADMIN_PASSWORD) notice(`Admin sign-in: ${DEMO_ADMIN_EMAIL} (password from DEMO_ADMIN_PASSWORD)`);
    else {
      notice(`Admin sign-in: ${DEMO_ADMIN_EMAIL} with password ${password} (shown once; set DEMO_ADMIN_PASSWORD to choose it)`);
      notice(`  A new password at any time: npm run users -- password --email ${DEMO_ADMIN_EMAIL}`);
    }
  },
});
