/**
 * The regions of a location answer (docs/surveys.md, "Regions"): a country's first-level ISO 3166-2 subdivisions
 * (those whose parent is the country itself: Germany's 16 states, not France's departments under its regions),
 * from the `iso-3166` package's list (about 5,000 subdivisions, 56 KB gzipped: too heavy for the widget, so the
 * survey element asks `GET /v1/stores/{storeId}/regions/{country}` for one country at a time). A region is stored
 * as the part of its code after the hyphen (`zoneCode: "BY"` for `DE-BY`), as shop platforms write provinces.
 */
import { iso31662 } from "iso-3166";
import { COUNTRY_CODES } from "../contract/countries.ts";
import { notFound } from "../contract/errors.ts";
import type { Region, RegionsResponse } from "../contract/regions.ts";
import { contentScope } from "../shared/content-scopes.ts";
import type { StoresRepo } from "../stores/stores.repo.ts";

let byCountry: Map<string, Region[]> | null = null;
/** Every country's first-level subdivisions, sorted by name (root collation), built on first use. */
function table(): Map<string, Region[]> {
  if (byCountry) return byCountry;
  const collator = new Intl.Collator("und");
  const out = new Map<string, Region[]>();
  for (const s of iso31662) {
    if (s.parent !== s.code.slice(0, 2)) continue;
    const list = out.get(s.parent) ?? [];
    list.push({ code: s.code.slice(3), name: s.name });
    out.set(s.parent, list);
  }
  for (const list of out.values()) list.sort((a, b) => collator.compare(a.name, b.name));
  return (byCountry = out);
}

/** The first-level subdivisions of `country` (ISO 3166-1 alpha-2, any case); [] for a country without any. */
export function regionsOf(country: string): Region[] {
  return table().get(country.toUpperCase()) ?? [];
}

/** Whether `zoneCode` names a first-level subdivision of `country`; true for a country without subdivisions (free text). */
export function isRegionOf(country: string, zoneCode: string): boolean {
  const list = regionsOf(country);
  return list.length === 0 || list.some((r) => r.code === zoneCode.toUpperCase());
}

/** The storefront read of regions (`GET /v1/stores/{storeId}/regions/{country}`). */
export function regionsService(deps: { stores: StoresRepo }) {
  return {
    /**
     * A country's regions for a store's storefront.
     * @throws ApiError 404 for an unknown store, or a code that is not an ISO 3166-1 alpha-2 country code a location answer takes.
     */
    async regions(storeId: string, country: string): Promise<RegionsResponse> {
      if (!(await deps.stores.get(storeId))) throw notFound("Store not found", "store_not_found");
      const code = country.toUpperCase();
      if (!COUNTRY_CODES.includes(code)) throw notFound(`Unknown country code "${country}": use an ISO 3166-1 alpha-2 code, like DE`, "country_not_found");
      return { country: code, regions: regionsOf(code) };
    },
    /** The content scopes of the answer: the store (it must exist); the ISO data changes only with a deploy. */
    cacheScopes: (storeId: string): string[] => [contentScope.store(storeId)],
  };
}
export type RegionsService = ReturnType<typeof regionsService>;
