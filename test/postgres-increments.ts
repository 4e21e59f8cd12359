/**
 * A second process for server/db/postgres.test.ts: `node test/postgres-increments.ts <url> <n>` runs n
 * read-then-write transactions (read c.v, write v + 1) on its own connection, then exits 0.
 */
import { transaction, type Db } from "../server/db/database.ts";
import { PostgresDatabase } from "../server/db/postgres.ts";

const [url, n] = process.argv.slice(2);
const db = new PostgresDatabase(url!) as unknown as Db;
for (let i = 0; i < Number(n); i++) {
  transaction(db, () => {
    const v = db.prepare("SELECT v FROM c WHERE id = 1").pluck().get() as number;
    db.prepare("UPDATE c SET v = ? WHERE id = 1").run(v + 1);
  });
}
db.close();
