/**
 * `npm run import -- --store <storeId> --file <reviews.csv> [--status published|pending] [--source NAME]
 *   [--create-store --platform shopify --name "My shop"]`
 *
 * `npm run import -- --format amazon-qa --file ../shared/data/amazon_qa_appliances.json [--store <storeId>] [--group appliances]`
 *   imports McAuley's Amazon Q&A file as published questions and answers (store defaults to the demo store;
 *   rules: server/questions/amazon-qa.ts, docs/writes.md).
 *
 * `npm run import -- --format orders-csv --store <storeId> --file orders.csv` imports orders (columns
 *   order_id, product_id, email, date?) so reviews and answers with a matching e-mail are from verified buyers.
 *
 * `npm run import -- --store <storeId> --format judgeme|yotpo|okendo|stamped|loox --file <export.csv> [--dry-run]
 *   [--skip-bad-rows] [--map column=field,...] [--date-order dmy|mdy]` imports another review app's export file
 *   (rules: server/import/app-import.ts, docs/import.md): prints per column what is mapped or ignored, then the
 *   numbers, each bad row and each failed media download with its line number. Exit code 1 when bad rows
 *   stopped the import (nothing imported; add --skip-bad-rows to import the good rows).
 *
 * Imports a reviews CSV (rules: server/import/reviews-csv.ts and the README). Prints progress,
 * a summary, and each bad row with its line number. Exit code 0 even with bad rows; 1 on a fatal error.
 */
import { parseArgs } from "node:util";
import { loadConfig, loopbackRequestsAllowed, databaseLabel } from "../config.ts";
import { importReviewsCsv } from "../import/reviews-csv.ts";
import { APP_FORMATS, FIELD_LABELS, parseMapping, type AppFormat } from "../import/app-formats.ts";
import { appImporterOf, ImportFileError, type AppImportReport } from "../import/app-import.ts";
import { createServices, type Services } from "../services.ts";
import { DEMO_STORE_ID } from "../demo/demo.ts";
import { importAmazonQa } from "../questions/amazon-qa.ts";
import { importOrdersCsv } from "../orders/orders-csv.ts";
import { progress } from "./progress.ts";

const USAGE = "usage: npm run import -- --store <storeId> --file <reviews.csv> [--status published|pending] [--source NAME] [--create-store --platform shopify --name NAME]";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      store: { type: "string" },
      file: { type: "string" },
      status: { type: "string", default: "published" },
      source: { type: "string" },
      "create-store": { type: "boolean", default: false },
      platform: { type: "string", default: "shopify" },
      name: { type: "string" },
      help: { type: "boolean", default: false },
      format: { type: "string", default: "reviews-csv" },
      group: { type: "string", default: "appliances" },
      "dry-run": { type: "boolean", default: false },
      "skip-bad-rows": { type: "boolean", default: false },
      map: { type: "string" },
      "date-order": { type: "string" },
    },
  });
  if ((APP_FORMATS as readonly string[]).includes(values.format!)) {
    return importApp(values.format as AppFormat, values.file, values.store, {
      dryRun: values["dry-run"]!,
      skipBadRows: values["skip-bad-rows"]!,
      map: values.map,
      dateOrder: values["date-order"],
    });
  }
  if (values.format === "amazon-qa") return importQa(values.file, values.store ?? DEMO_STORE_ID, values.group!);
  if (values.format === "orders-csv") return importOrders(values.file, values.store);
  if (values.format !== "reviews-csv") {
    console.error(`--format must be reviews-csv (default), amazon-qa, orders-csv or a review app: ${APP_FORMATS.join(", ")}`);
    return 2;
  }
  if (values.help || !values.store || !values.file) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  if (values.status !== "published" && values.status !== "pending") {
    console.error("--status must be published or pending");
    return 2;
  }
  const create = values["create-store"] ? { name: values.name ?? values.store, platform: values.platform! } : undefined;
  const { status, source } = values;
  return withStore(values.store, create, async (services) => {
    const bar = progress("import", 0);
    const report = await importReviewsCsv(
      { db: services.db, stores: services.stores, reviews: services.reviewsData },
      { storeId: values.store!, file: values.file!, status, source, onProgress: (p) => bar.update(p.rowsRead, `rows, ${p.inserted} imported`) },
    );
    bar.stop();
    for (const bad of report.badRows) console.error(`line ${bad.line}: ${bad.reason}`);
    const rate = Math.round(report.rowsRead / Math.max(report.ms / 1000, 0.001));
    console.log(
      `${report.rowsRead} rows read: ${report.inserted} imported, ${report.alreadyPresent} already present, ${report.badRows.length} bad rows skipped; ${report.products} products, ${report.groups} groups; ${report.ms} ms (${rate} rows/s)`,
    );
    return 0;
  });
}

/**
 * Open the configured database, check (or with `create`, first create) the store, run `fn`, close.
 * @returns fn's exit code, or 1 when the store does not exist.
 */
async function withStore(storeId: string, create: { name: string; platform: string } | undefined, fn: (services: Services) => Promise<number> | number): Promise<number> {
  const config = loadConfig();
  const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, allowLoopbackRequests: loopbackRequestsAllowed(config) });
  try {
    if (create) await services.stores.create({ storeId, ...create });
    if (!(await services.stores.get(storeId))) {
      console.error(`No store ${storeId} in ${databaseLabel(config.DATABASE_PATH)}${create ? "" : " (add --create-store to create it with the reviews import)"}`);
      return 1;
    }
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** `--format amazon-qa`: questions and answers from McAuley's loose-JSON file; bad lines reported with their numbers. */
async function importQa(file: string | undefined, storeId: string, groupId: string): Promise<number> {
  if (!file) {
    console.error("usage: npm run import -- --format amazon-qa --file <qa.json> [--store <storeId>] [--group appliances]");
    return 2;
  }
  return withStore(storeId, undefined, async (services) => {
    const report = await importAmazonQa({ db: services.db, stores: services.stores, questions: services.questionsData }, { storeId, file, groupId });
    for (const bad of report.badLines) console.error(`line ${bad.line}: ${bad.reason}`);
    console.log(
      `${report.linesRead} lines read: ${report.records} records, ${report.questionsInserted} questions imported, ${report.alreadyPresent} already present, ${report.badLines.length} bad lines skipped; ${report.products} products; ${report.ms} ms`,
    );
    return 0;
  });
}

/** `--format orders-csv`: imported orders for verified-buyer status. */
async function importOrders(file: string | undefined, storeId: string | undefined): Promise<number> {
  if (!file || !storeId) {
    console.error("usage: npm run import -- --format orders-csv --store <storeId> --file <orders.csv>");
    return 2;
  }
  return withStore(storeId, undefined, async (services) => {
    const report = await importOrdersCsv(services.orders, { storeId, file });
    for (const bad of report.badRows) console.error(`line ${bad.line}: ${bad.reason}`);
    console.log(`${report.rows} rows read: ${report.inserted} order lines imported, ${report.badRows.length} bad rows skipped`);
    return 0;
  });
}

/** Print an app import's report: the column mapping, the numbers, bad rows and failed media downloads. */
function printAppReport(report: AppImportReport, log: (line: string) => void = console.log): void {
  log("Columns:");
  for (const c of report.columns) log(`  ${c.column || "(unnamed)"} → ${c.field ? `${c.field} (${FIELD_LABELS[c.field]})` : "ignored"}${c.note ? `: ${c.note}` : ""}`);
  for (const bad of report.badRows) log(`line ${bad.line}: skipped: ${bad.reason}`);
  for (const f of report.media.failed) log(`line ${f.line}: media ${f.url} not imported: ${f.reason}`);
  const c = report.curation;
  const verb = report.dryRun ? "would be imported" : report.committed ? "imported" : "would be imported, but nothing was (bad rows; fix them or add --skip-bad-rows)";
  log(`${report.rowsRead} rows read: ${report.imported} ${verb}, ${report.alreadyPresent} already present, ${report.badRows.length} bad rows${report.committed || report.dryRun ? " skipped" : ""}`);
  log(`  curation: ${c.published} published, ${c.pending} pending, ${c.hidden} hidden, ${c.spam} spam; ${report.verifiedBuyers} verified buyers; ${report.replies} replies`);
  log(
    `  products: ${report.products.matched} matched, ${report.products.created} created; media: ${report.media.found} URLs${report.dryRun ? " (downloaded by the real run)" : `, ${report.media.imported} imported, ${report.media.failed.length} failed`}; ${report.ms} ms`,
  );
}

/** `--format judgeme|yotpo|okendo|stamped|loox`: another review app's export file. */
async function importApp(format: AppFormat, file: string | undefined, storeId: string | undefined, o: { dryRun: boolean; skipBadRows: boolean; map?: string; dateOrder?: string }): Promise<number> {
  if (!file || !storeId) {
    console.error(`usage: npm run import -- --store <storeId> --format ${format} --file <export.csv> [--dry-run] [--skip-bad-rows] [--map column=field,...] [--date-order dmy|mdy]`);
    return 2;
  }
  if (o.dateOrder !== undefined && o.dateOrder !== "dmy" && o.dateOrder !== "mdy") {
    console.error("--date-order must be dmy or mdy");
    return 2;
  }
  let map;
  try {
    map = o.map ? parseMapping(o.map) : undefined;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  return withStore(storeId, undefined, async (services) => {
    try {
      const report = await appImporterOf(services).run({
        // Media URLs go through the outgoing-request guard: loopback hosts only with ALLOW_LOOPBACK_REQUESTS=1.
        storeId,
        file,
        format,
        map,
        dryRun: o.dryRun,
        skipBadRows: o.skipBadRows,
        dateOrder: o.dateOrder as "dmy" | "mdy" | undefined,
      });
      printAppReport(report);
      return !report.dryRun && !report.committed ? 1 : 0;
    } catch (error) {
      if (error instanceof ImportFileError) {
        console.error(error.message);
        return 1;
      }
      throw error;
    }
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
