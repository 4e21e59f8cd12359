/**
 * zod schemas of admin form fields shared by several admin routes (store settings).
 */
import { z } from "zod";

export const moderationSchema = z.enum(["manual", "auto-publish-4-5", "auto-publish-all"], {
  error: "moderation must be manual, auto-publish-4-5 or auto-publish-all",
});
export const translationSchema = z.enum(["off", "on-load"], { error: "translation must be off or on-load" });
