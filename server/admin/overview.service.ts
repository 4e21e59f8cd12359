/**
 * A store's admin home (docs/admin.md "Home: getting started and the last 30 days"):
 *
 * - `checklist(storeId)`: the getting-started checklist, six steps, each ticked from the store's own data (never a
 *   box the merchant ticks): platform connected, widgets found on the shop's page by "check my page", reviews
 *   imported, review requests on, loyalty program on, a survey of the store's own.
 * - `checkPage(storeId, url)`: "check my page": fetch the merchant's page through the outgoing-request guard
 *   (server/shared/outgoing-request.ts: public addresses only, bounded in time and bytes, redirects checked) and
 *   say whether the Chorus script and which `chorus-*` elements with the store's ID are on it. The latest check
 *   is kept (`widget_page_checks`) and ticks the widgets step.
 * - `dashboard(storeId, nowMs)`: the last 30 days: reviews received and published per UTC day, the average rating
 *   of the published ones, the review-request funnel, loyalty members and points, NPS.
 */
import { Parser } from "htmlparser2";
import { guardedFetch, isOutgoingRequestError } from "../shared/outgoing-request.ts";
import type { FunnelDay } from "../review-requests/review-requests.service.ts";
import type { OverviewRepo } from "./overview.repo.ts";

const DAY_MS = 86_400_000;
/** The dashboard's window, in UTC days (today included). */
export const DASHBOARD_DAYS = 30;
/** "Check my page" reads at most this much of the page (longer pages are cut, which is enough for a theme's markup). */
const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 10_000;
const PAGE_REDIRECTS = 3;

/** The steps of the checklist, in order; `section` is the admin page that does the step (under the store's URL). */
export const CHECKLIST_STEPS = [
  { id: "platform", label: "Connect your shop platform", section: "platform", hint: "Paste the webhook addresses into your shop and set the app secret, so orders reach Chorus." },
  { id: "widgets", label: "Put the widgets on your shop", section: "integration", hint: "Copy the snippet into your theme, then check your page below." },
  { id: "import", label: "Import reviews from your old app", section: "import/apps", hint: "Judge.me, Yotpo, Okendo, Stamped or Loox exports, or a CSV file." },
  { id: "review-requests", label: "Turn on review requests", section: "review-requests", hint: "Ask buyers for a review by e-mail after their order is fulfilled." },
  { id: "loyalty", label: "Set up loyalty", section: "loyalty/program", hint: "Turn on the loyalty program with your legal texts, then add earning rules." },
  { id: "survey", label: "Create a survey", section: "surveys", hint: 'Ask shoppers on your site or after checkout: an NPS survey or "How did you hear about us?".' },
] as const;
export type ChecklistStepId = (typeof CHECKLIST_STEPS)[number]["id"];

/** One step of the checklist as the page shows it. */
export type ChecklistStep = { id: ChecklistStepId; label: string; section: string; hint: string; done: boolean };

/** What "check my page" found: the page that answered, its status, the script, the elements (with counts). */
export type PageCheck = {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  scriptFound: boolean;
  /** `chorus-*` elements carrying this store's ID, in page order, each with how often it occurs. */
  elements: { tag: string; count: number }[];
  /** `chorus-*` elements with another store's ID or none (the snippet of another store pasted by mistake). */
  otherStoreElements: string[];
  /** The page was longer than the bytes read. */
  truncated: boolean;
  checkedAt: string;
};

/** Why a page could not be checked, in words for the merchant (shown beside the URL field). */
export class PageCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PageCheckError";
  }
}

/** The dashboard of the last DASHBOARD_DAYS UTC days up to `nowMs`. */
export type Dashboard = {
  from: string;
  to: string;
  reviews: { received: number; published: number; averageRating: number | null; days: { day: string; received: number; published: number }[] };
  funnel: { days: FunnelDay[]; totals: Omit<FunnelDay, "day"> };
  loyalty: { members: number; newMembers: number; pointsEarned: number; pointsRedeemed: number };
  /** `score` is null without answers; −100…+100 otherwise (docs/surveys.md "Survey response fields": the NPS categories). */
  nps: { score: number | null; promoters: number; passives: number; detractors: number; answered: number };
};

/**
 * The elements and the script on an HTML page (htmlparser2, as browsers tokenise it; scripts that add elements
 * at run time are not run, so only elements in the page's HTML count).
 * @param base the page's URL, to resolve the script's `src`.
 */
export function findWidgets(html: string, storeId: string, base: string): { scriptFound: boolean; elements: { tag: string; count: number }[]; otherStoreElements: string[] } {
  let scriptFound = false;
  const counts = new Map<string, number>();
  const others = new Set<string>();
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "script" && attributes.src) {
          try {
            if (new URL(attributes.src, base).pathname.endsWith("/widgets/chorus.js")) scriptFound = true;
          } catch {
            /* not a URL: not our script */
          }
        } else if (name.startsWith("chorus-")) {
          if (attributes["store-id"] === storeId) counts.set(name, (counts.get(name) ?? 0) + 1);
          else others.add(name);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { scriptFound, elements: [...counts].map(([tag, count]) => ({ tag, count })), otherStoreElements: [...others] };
}

/** NPS from the category counts: round(100 × (promoters − detractors) / answered), null without answers. */
export const npsOf = (c: { promoters: number; passives: number; detractors: number }): number | null => {
  const answered = c.promoters + c.passives + c.detractors;
  return answered ? Math.round((100 * (c.promoters - c.detractors)) / answered) : null;
};

/** The service. `reviewRequestsOn` and `funnel` come from the review-requests service. */
export function overviewService(deps: {
  repo: OverviewRepo;
  reviewRequestsOn: (storeId: string) => Promise<boolean>;
  funnel: (storeId: string, days: number, nowMs: number) => Promise<Dashboard["funnel"]>;
  /** ALLOW_LOOPBACK_REQUESTS (tests and local development): "check my page" may reach loopback addresses. */
  allowLoopback: boolean;
  now?: () => number;
}) {
  const { repo } = deps;
  const now = deps.now ?? Date.now;
  return {
    /** The checklist of `storeId`: every step with whether it is done. */
    async checklist(storeId: string): Promise<ChecklistStep[]> {
      const [facts, check, requestsOn] = await Promise.all([repo.checklistFacts(storeId), repo.pageCheck(storeId), deps.reviewRequestsOn(storeId)]);
      const done: Record<ChecklistStepId, boolean> = {
        platform: facts.platformConnected,
        widgets: !!check && check.scriptFound && check.elements.length > 0,
        import: facts.reviewsImported,
        "review-requests": requestsOn,
        loyalty: facts.loyaltyOn,
        survey: facts.surveyCreated,
      };
      return CHECKLIST_STEPS.map((s) => ({ ...s, done: done[s.id] }));
    },

    /** The latest page check (URL, when, script, elements) and the shop's address from sign-up, for the form. */
    async pageCheckState(storeId: string) {
      const [check, shopUrl] = await Promise.all([repo.pageCheck(storeId), repo.shopUrl(storeId)]);
      return { last: check ? { pageUrl: check.pageUrl, checkedAt: new Date(check.checkedMs).toISOString(), scriptFound: check.scriptFound, elements: check.elements } : null, shopUrl };
    },

    /**
     * Fetch `url` through the guard and look for the widgets; keep the result as the store's latest check.
     * A page that answers with another status than 2xx is not checked (its status is the error).
     * @throws PageCheckError: not an http(s) URL, refused by the guard (a private or loopback address), no answer
     *   within 10 s, a status other than 2xx.
     */
    async checkPage(storeId: string, url: string): Promise<PageCheck> {
      let answer;
      try {
        answer = await guardedFetch(url, {
          allowLoopback: deps.allowLoopback,
          maxBytes: PAGE_MAX_BYTES,
          overflow: "truncate",
          timeoutMs: PAGE_TIMEOUT_MS,
          redirects: PAGE_REDIRECTS,
          headers: { accept: "text/html", "user-agent": "Chorus page check" },
        });
      } catch (error) {
        if (isOutgoingRequestError(error)) throw new PageCheckError(`The page could not be fetched: ${error.message}.`);
        throw error;
      }
      if (answer.status < 200 || answer.status > 299) throw new PageCheckError(`The page answered ${answer.status}, not a page to check. Is the address right and the page public?`);
      const found = findWidgets(answer.body.toString("utf8"), storeId, answer.url);
      const checkedMs = now();
      // After the request, never during it: the write is one statement of its own.
      await repo.savePageCheck(storeId, { pageUrl: answer.url, checkedMs, scriptFound: found.scriptFound, elements: found.elements.map((e) => e.tag) });
      return { url: answer.url, status: answer.status, ...found, truncated: answer.truncated, checkedAt: new Date(checkedMs).toISOString() };
    },

    /** The dashboard of the last 30 UTC days up to `nowMs` (default: the service's clock). */
    async dashboard(storeId: string, nowMs = now()): Promise<Dashboard> {
      const firstDay = Math.floor(nowMs / DAY_MS) - (DASHBOARD_DAYS - 1);
      const since = firstDay * DAY_MS;
      const [rows, funnel, loyalty, nps] = await Promise.all([
        repo.reviewsByDay(storeId, since, nowMs),
        deps.funnel(storeId, DASHBOARD_DAYS, nowMs),
        repo.loyaltyFigures(storeId, since, nowMs),
        repo.npsCounts(storeId, since, nowMs),
      ]);
      const byDay = new Map(rows.map((r) => [Number(r.day), r]));
      const days = Array.from({ length: DASHBOARD_DAYS }, (_, i) => {
        const r = byDay.get(firstDay + i);
        return { day: new Date((firstDay + i) * DAY_MS).toISOString().slice(0, 10), received: r?.received ?? 0, published: r?.published ?? 0 };
      });
      const published = rows.reduce((s, r) => s + r.published, 0);
      const ratingTotal = rows.reduce((s, r) => s + r.ratingTotal, 0);
      return {
        from: days[0]!.day,
        to: days[days.length - 1]!.day,
        reviews: { received: rows.reduce((s, r) => s + r.received, 0), published, averageRating: published ? Math.round((ratingTotal / published) * 100) / 100 : null, days },
        funnel,
        loyalty,
        nps: { ...nps, answered: nps.promoters + nps.passives + nps.detractors, score: npsOf(nps) },
      };
    },
  };
}
export type OverviewService = ReturnType<typeof overviewService>;
