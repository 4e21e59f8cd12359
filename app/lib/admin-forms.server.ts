/**
 * Admin form handling shared by several admin routes: zod schemas of store settings fields, and the
 * moderation pages' publish / reject intents.
 */
import { data } from "@remix-run/node";
import { z } from "zod";
import { field } from "./admin.server.ts";

export const moderationSchema = z.enum(["manual", "auto-publish-4-5", "auto-publish-all"], {
  error: "moderation must be manual, auto-publish-4-5 or auto-publish-all",
});
export const translationSchema = z.enum(["off", "on-load"], { error: "translation must be off or on-load" });

/**
 * The publish / reject intents shared by the moderation pages (reviews, questions): `publish` and
 * `reject` act on the one item in form field `itemField`, `bulk-publish` and `bulk-reject` on every ticked
 * one. `setStatus(ids, status)` changes the store's own items and returns how many it changed.
 * @returns a promise of the action's answer (a flash message, or an error with 400/404), or null for another intent.
 */
export async function moderationIntent(intent: string, form: FormData, itemField: string, noun: string, setStatus: (ids: string[], status: "published" | "rejected") => Promise<number> | number) {
  const Noun = noun[0].toUpperCase() + noun.slice(1);
  switch (intent) {
    case "publish":
    case "reject": {
      const n = await setStatus([field(form, itemField)], intent === "publish" ? "published" : "rejected");
      if (n === 0) return data({ error: `${Noun} not found.` }, { status: 404 });
      return { ok: intent === "publish" ? `${Noun} published.` : `${Noun} rejected.` };
    }
    case "bulk-publish":
    case "bulk-reject": {
      const ids = form.getAll(itemField).filter((v): v is string => typeof v === "string");
      if (ids.length === 0) return data({ error: `Tick at least one ${noun} first.` }, { status: 400 });
      const status = intent === "bulk-publish" ? "published" : "rejected";
      const n = await setStatus(ids, status);
      if (n === 0) return data({ error: `None of the chosen ${noun}s were found.` }, { status: 404 });
      return { ok: `${n} ${noun}${n === 1 ? "" : "s"} ${status}.` };
    }
    default:
      return null;
  }
}
