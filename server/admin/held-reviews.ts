/**
 * No review waits forever (docs/admin.md "Held reviews"): the store's moderation settings as the `moderation`
 * section of `GET/PATCH /enterprise/settings` (the rule for new reviews and `publishHeldAfterDays`), and the
 * held-review job's loop, which publishes reviews still pending after that many days
 * (`ModerationService.publishHeld`). A store that holds low ratings and never moderates them would show
 * shoppers only its good reviews: the FTC rule on review suppression (16 CFR 465.7) forbids that, so the
 * default is 14 days and "never" is only an explicit choice (null or false).
 */
import { z } from "zod";
import { notFound } from "../contract/errors.ts";
import type { ModerationSetting, StoresRepo } from "../stores/stores.repo.ts";
import { errorMessage, startPeriodicJob, type PeriodicJob } from "../shared/periodic-job.ts";
import type { ModerationService } from "./moderation.service.ts";

/** Days after which a held review is published, for a store that did not choose. */
export const DEFAULT_PUBLISH_HELD_AFTER_DAYS = 14;
/** Time between two runs of the job (ms): 10 minutes. */
export const HELD_REVIEWS_INTERVAL_MS = 600_000;

const DAYS_ERROR = "publishHeldAfterDays must be a whole number of days from 1 to 365, or null (or false) to never publish held reviews";
const days = z.number({ error: DAYS_ERROR }).int(DAYS_ERROR).min(1, DAYS_ERROR).max(365, DAYS_ERROR);
const newReviews = z.enum(["manual", "auto-publish-4-5", "auto-publish-all"], { error: "newReviews must be manual, auto-publish-4-5 or auto-publish-all" });

/** GET: the store's moderation settings. */
export const moderationSettingsSchema = z
  .object({
    newReviews: newReviews.meta({ description: "New reviews: all wait for moderation (manual), 4 and 5 stars are published at once, or all are." }),
    publishHeldAfterDays: days.nullable().meta({
      description:
        "A review still waiting this many days after it was written is published, unless rejected (default 14). null: never; " +
        "a store that holds low ratings and never moderates them shows shoppers only good reviews, which the FTC rule on review suppression (16 CFR 465.7) forbids.",
    }),
  })
  .strict()
  .meta({ id: "ModerationSettings", description: "How new reviews are moderated, and after how many days a review nobody moderated is published (docs/admin.md)." });
export type ModerationSettings = z.output<typeof moderationSettingsSchema>;

/** PATCH: any subset; `publishHeldAfterDays: false` is the same as null (never). */
export const moderationSettingsPatchSchema = z
  .object(
    {
      newReviews: newReviews.optional(),
      publishHeldAfterDays: z
        .union([days, z.null(), z.literal(false)], { error: DAYS_ERROR })
        .transform((v) => (v === false ? null : v))
        .optional(),
    },
    { error: "moderation must be an object" },
  )
  .strict()
  .meta({ id: "ModerationSettingsPatch" });
export type ModerationSettingsPatch = z.output<typeof moderationSettingsPatchSchema>;

/** The `moderation` settings section over the stores repo (the admin's reviews page writes the same columns). */
export function moderationSettings(stores: StoresRepo) {
  return {
    /** @throws ApiError 404 when the store does not exist. */
    async get(storeId: string): Promise<ModerationSettings> {
      const store = await stores.get(storeId);
      if (!store) throw notFound("Store not found", "store_not_found");
      return { newReviews: store.moderation, publishHeldAfterDays: store.publishHeldAfterDays };
    },
    /** Apply a parsed patch. @throws ApiError 404 when the store does not exist. */
    async update(storeId: string, patch: ModerationSettingsPatch): Promise<void> {
      if (!(await stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      await stores.updateSettings(storeId, {
        ...(patch.newReviews ? { moderation: patch.newReviews as ModerationSetting } : {}),
        ...(patch.publishHeldAfterDays !== undefined ? { publishHeldAfterDays: patch.publishHeldAfterDays } : {}),
      });
    },
  };
}

/**
 * When a pending review written at `createdMs` is published by the job under `days` (null: never). The job
 * runs every HELD_REVIEWS_INTERVAL_MS, so it happens up to that much later.
 */
export function heldPublishMs(createdMs: number, days: number | null): number | null {
  return days === null ? null : createdMs + days * 86_400_000;
}

/** The job's loop: `tick()` runs it once now (@returns how many reviews were published, or null after an error, logged). */
export type HeldReviewPublisher = PeriodicJob<number>;

/**
 * Start the job's loop: a run right away (what fell due while the server was down), then every `intervalMs`.
 * The state is the reviews themselves, so the loop holds none; every node may run it (each review is
 * published once, `publishHeld`). @param options.clock current time in ms (default Date.now).
 */
export function startHeldReviewPublisher(options: { service: Pick<ModerationService, "publishHeld">; clock?: () => number; intervalMs?: number; log?: (line: string) => void }): HeldReviewPublisher {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => {});
  const intervalMs = options.intervalMs ?? HELD_REVIEWS_INTERVAL_MS;
  return startPeriodicJob({
    intervalMs,
    run: async () => {
      const published = await options.service.publishHeld(clock());
      if (published) log(`Held reviews: ${published} published automatically (no one moderated them in time)`);
      return published;
    },
    onError: (error) => log(`Held reviews: the run failed, next try in ${Math.round(intervalMs / 60_000)} minutes: ${errorMessage(error)}`),
  });
}
