/**
 * The store admin's navigation (docs/admin.md "Navigation"), one data structure: groups in order, each with its
 * pages. A new page is one entry in its group; the layout (app/routes/admin.stores.$storeId.tsx) renders the rest.
 *
 * `path` is under `/admin/stores/{storeId}/` unless `absolute` (a page of the whole admin, e.g. the outbox);
 * `hash` links to a part of a page (no own page, never shown as the current one); an item is the current page
 * also on the pages under its path (a survey response under Surveys) unless `end`.
 */
export type NavItem = { label: string; path: string; absolute?: boolean; hash?: string; /** Current only on exactly this page (other items are under its path). */ end?: boolean };
export type NavGroup = { label: string; items: readonly NavItem[] };

export const ADMIN_NAV: readonly NavGroup[] = [
  {
    label: "Reviews",
    items: [
      { label: "Moderation", path: "reviews" },
      { label: "Questions", path: "questions" },
      { label: "AI content", path: "ai" },
      { label: "Import", path: "import" },
      { label: "Review requests", path: "review-requests" },
    ],
  },
  {
    label: "Loyalty",
    items: [
      { label: "Rules and tiers", path: "loyalty", end: true },
      { label: "Customers", path: "loyalty/customers" },
      { label: "Program set-up", path: "loyalty/program" },
    ],
  },
  { label: "Surveys", items: [{ label: "Surveys", path: "surveys" }] },
  {
    label: "Shop",
    items: [
      { label: "Platform", path: "platform" },
      { label: "Orders", path: "orders" },
      { label: "Widgets", path: "widgets" },
      { label: "Integration", path: "integration" },
      { label: "Google Shopping", path: "google-shopping" },
    ],
  },
  {
    label: "Data",
    items: [
      { label: "Exports", path: "exports" },
      { label: "Shopper data", path: "privacy" },
      { label: "Webhooks", path: "webhooks" },
      { label: "Klaviyo", path: "klaviyo" },
    ],
  },
  {
    label: "Settings",
    items: [
      { label: "Store settings", path: "settings" },
      { label: "Team", path: "team" },
      { label: "API keys", path: "integration", hash: "api-keys" },
      { label: "Outbox", path: "/admin/outbox", absolute: true },
    ],
  },
];

/** Every page of the navigation with its group, in order (section names for the store switcher, tests). */
export const NAV_PAGES: readonly (NavItem & { group: string })[] = ADMIN_NAV.flatMap((g) => g.items.map((i) => ({ ...i, group: g.label })));

/** The link of an item for the store whose admin is at `base` (`/admin/stores/{storeId}`). */
export const navHref = (base: string, item: NavItem): string => `${item.absolute ? item.path : `${base}/${item.path}`}${item.hash ? `#${item.hash}` : ""}`;
