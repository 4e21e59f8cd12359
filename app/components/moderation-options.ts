/** The store moderation setting's choices, as the admin shows them (values: stores.moderation). */
export const MODERATION_OPTIONS = [
  { value: "manual", label: "Manual: every review waits for you" },
  { value: "auto-publish-4-5", label: "Auto-publish 4 and 5 star reviews; the rest wait for you" },
  { value: "auto-publish-all", label: "Auto-publish every review" },
] as const;
