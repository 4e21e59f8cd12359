/**
 * The admin home's "check my page" form (app/routes/admin.stores.$storeId._index.tsx): the URL field checked
 * with zod, then `services.overview.checkPage` (the outgoing-request guard). Answers are plain data for the page.
 */
import { z } from "zod";
import type { Services } from "../../server/services.ts";
import type { PageCheck } from "../../server/admin/overview.service.ts";

const pageUrl = z.url({ protocol: /^https?$/, error: "Enter the full address of a page of your shop, starting with https://" }).max(2048, "That address is too long (at most 2,048 characters).");

/** `{ found }` or `{ error }` (a sentence for the merchant, shown beside the URL field). */
export type CheckPageAnswer = { found: PageCheck; error?: undefined } | { error: string; found?: undefined };

/** Check the page at `raw` for the widgets of `storeId`. Never throws for a bad URL or an unreachable page. */
export async function checkPageAnswer(services: Services, storeId: string, raw: string | undefined): Promise<CheckPageAnswer> {
  const parsed = pageUrl.safeParse((raw ?? "").trim());
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Enter the address of a page of your shop." };
  try {
    return { found: await services.overview.checkPage(storeId, parsed.data) };
  } catch (error) {
    if (error instanceof Error && error.name === "PageCheckError") return { error: error.message };
    throw error;
  }
}
