/**
 * `npm run ai -- <command>`: AI summaries and keyword topics from the command line.
 *
 *   summarise --store <storeId> [--product <productId>] [--publish]
 *       Generate now (not via the queue) for the product, or for every product with enough published
 *       reviews and every group that uses group-level content. Published at once when the store's AI
 *       auto-publish is on or with --publish; otherwise each version waits for approval.
 *   show --store <storeId> --product <productId>     the product's summary and keywords as the storefront sees them
 *   versions --store <storeId> --product <productId> every generated version (ID, engine, dates, reviews)
 *   approve --store <storeId> --version <versionId>  publish a version
 *   queue                                            job counts of the persisted queue
 */
import { parseArgs } from "node:util";
import { loadConfig, databaseLabel } from "../config.ts";
import { createServices } from "../services.ts";
import type { AiScope } from "../ai/ai.repo.ts";
import { progress } from "./progress.ts";

const USAGE = `usage: npm run ai -- summarise --store <storeId> [--product <productId>] [--publish]
       npm run ai -- show --store <storeId> --product <productId>
       npm run ai -- versions --store <storeId> --product <productId>
       npm run ai -- approve --store <storeId> --version <versionId>
       npm run ai -- queue`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      store: { type: "string" },
      product: { type: "string" },
      version: { type: "string" },
      publish: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const services = await createServices({ databasePath: config.DATABASE_PATH, mediaPath: config.MEDIA_PATH, log: (l) => console.error(l) });
  try {
    if (command === "queue") {
      console.log(JSON.stringify(await services.aiData.jobCounts()));
      return 0;
    }
    if (!values.store) {
      console.error(`--store is required\n${USAGE}`);
      return 2;
    }
    const store = await services.stores.get(values.store);
    if (!store) {
      console.error(`No store ${values.store} in ${databaseLabel(config.DATABASE_PATH)}`);
      return 1;
    }
    const productKey = (id: string) => `${store.platform}-${id}`;

    if (command === "summarise" || command === "summarize") {
      const min = Math.min(services.aiConfig.minReviews, services.aiConfig.keywordsMinReviews);
      const scopes: AiScope[] = values.product
        ? [{ type: "product", id: values.product }]
        : [
            ...(await services.stores.topProducts(store.storeId, 1_000_000)).filter((p) => p.reviewCount >= min).map((p) => ({ type: "product" as const, id: p.productId })),
            ...(await services.stores.listGroups(store.storeId)).filter((g) => g.useGroupContent).map((g) => ({ type: "group" as const, id: g.groupId })),
          ];
      const bar = progress("summarise", scopes.length);
      const started = Date.now();
      let generated = 0,
        skipped = 0,
        reviews = 0,
        analysed = 0,
        fallbacks = 0;
      for (const [i, scope] of scopes.entries()) {
        const r = await services.ai.generate(store.storeId, scope, { publish: values.publish });
        if (r.status === "generated") {
          generated++;
          reviews += r.reviewCount;
          analysed += r.analysed;
          if (r.fallbackReason) fallbacks++;
        } else {
          skipped++;
          if (values.product) console.error(`${scope.type} ${scope.id}: skipped (${r.reason})`);
        }
        bar.update(i + 1, `${scope.type} ${scope.id}`);
      }
      bar.stop();
      const ms = Date.now() - started;
      const published = store.aiAutoPublish || values.publish ? "published" : "awaiting approval (store auto-publish is off; use --publish or `approve`)";
      console.log(
        `${generated} generated (${published}), ${skipped} skipped (fewer than ${min} published reviews); ${reviews} reviews used, ${analysed} newly analysed; ${fallbacks} language-model fallbacks`,
      );
      console.log(
        `${ms} ms total; ${reviews ? ((ms / reviews) * 1000).toFixed(0) : "-"} ms per 1,000 reviews used${analysed ? `; ${Math.round(analysed / (ms / 1000))} reviews analysed per second` : ""}`,
      );
      return 0;
    }
    if (command === "show" || command === "versions") {
      if (!values.product) {
        console.error(`--product is required\n${USAGE}`);
        return 2;
      }
      const params = { storeId: store.storeId, productKey: productKey(values.product) };
      if (command === "show") {
        console.log(JSON.stringify({ ...(await services.ai.getSummary(params)), ...(await services.ai.getKeywords(params)) }, null, 2));
      } else {
        const { scope } = await services.ai.contentScope(params);
        for (const v of await services.ai.versions(store.storeId, scope)) {
          console.log(
            `${v.version_id}  ${v.engine}  generated ${new Date(v.generated_ms).toISOString()}  ${v.published_ms ? `published ${new Date(v.published_ms).toISOString()}` : "not published"}  ${v.contributing_review_count} reviews`,
          );
        }
      }
      return 0;
    }
    if (command === "approve") {
      if (!values.version) {
        console.error(`--version is required\n${USAGE}`);
        return 2;
      }
      const v = await services.ai.approve(store.storeId, values.version);
      console.log(`Published ${v.version_id} at ${new Date(v.published_ms!).toISOString()}`);
      return 0;
    }
    console.error(`unknown command ${command}\n${USAGE}`);
    return 2;
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
