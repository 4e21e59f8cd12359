/**
 * Demo seeder "review-media": generated colour-swatch images (gradients and stripes rendered with
 * sharp at start-up, no photos of people, no files in the repository) attached, through the real
 * media pipeline, to real published reviews of the demo store's top products. Alt text says what
 * the image is.
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import { transaction } from "../db/database.ts";
import type { Services } from "../services.ts";

/** Render one swatch (1200×900 PNG) whose colours derive from `seed`. */
export async function renderSwatch(seed: string): Promise<Buffer> {
  const h = createHash("sha1").update(seed).digest();
  const hue = (h[0] / 255) * 360;
  const c1 = `hsl(${hue.toFixed(0)}, 55%, 62%)`;
  const c2 = `hsl(${((hue + 40 + h[1] / 8) % 360).toFixed(0)}, 60%, 38%)`;
  const stripes = Array.from(
    { length: 6 },
    (_, i) => `<rect x="${i * 220 - 100}" y="-200" width="${40 + (h[2 + i] % 60)}" height="1400" fill="#fff" fill-opacity="0.14" transform="rotate(${20 + (h[9] % 30)} 600 450)"/>`,
  ).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs><rect width="800" height="600" fill="url(#g)"/>${stripes}<circle cx="${300 + (h[10] % 600)}" cy="${250 + (h[11] % 400)}" r="${120 + (h[12] % 120)}" fill="#fff" fill-opacity="0.18"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Attach 1–2 swatches to up to `perProduct` real 4–5-star reviews of each of the top `products`
 * products of `storeId`. Idempotent in effect: only reviews without media are chosen.
 * @returns the number of media items created.
 */
export async function seedDemoMedia(services: Services, storeId: string, options: { products?: number; perProduct?: number } = {}): Promise<number> {
  let created = 0;
  for (const product of await services.stores.topProducts(storeId, options.products ?? 6)) {
    const reviews = await services.mediaRows.publishedReviewsWithoutMedia(storeId, product.productId, 4, options.perProduct ?? 5);
    for (const [n, review] of reviews.entries()) {
      const count = n % 3 === 0 ? 2 : 1;
      const prepared = [];
      for (let i = 0; i < count; i++) {
        const data = await renderSwatch(`${review.review_id}:${i}`);
        prepared.push(await services.media.prepare({ filename: `swatch-${i}.png`, claimedType: "image/png", bytes: data.length, data, sniffed: "png" }, "image", i));
      }
      const stored = services.media.write(storeId, prepared);
      try {
        await transaction(services.db, async () => {
          for (const [i, m] of stored.entries()) {
            await services.mediaRows.insertMedia(storeId, review.review_id, m, {
              alt: `Colour swatch for ${product.name} (generated demo image), from a ${review.rating}-star review`,
              position: i,
              createdMs: review.created_ms + i,
            });
          }
        });
      } catch (error) {
        services.media.remove(
          storeId,
          stored.map((m) => m.mediaId),
        );
        throw error;
      }
      created += stored.length;
    }
  }
  return created;
}
