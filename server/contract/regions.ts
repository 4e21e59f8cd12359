/**
 * The answer of `GET /v1/stores/{storeId}/regions/{country}` (docs/surveys.md, "Regions"): a country's first-level
 * ISO 3166-2 subdivisions, for the region picker of a location question. Pure zod, shared with `<chorus-survey>`
 * (types only).
 */
import { z } from "zod";

export const regionSchema = z
  .object({
    code: z
      .string()
      .meta({ description: "The subdivision's code within the country: the part of its ISO 3166-2 code after the hyphen (`BY` of `DE-BY`), as a location answer's `zoneCode` stores it." }),
    name: z.string().meta({ description: "The subdivision's name as ISO 3166-2 lists it (`Bayern`, `California`)." }),
  })
  .meta({ id: "Region", description: "A first-level subdivision (state, province, region) of a country." });
export type Region = z.infer<typeof regionSchema>;

export const regionsResponseSchema = z
  .object({
    country: z.string().meta({ description: "The ISO 3166-1 alpha-2 code asked for." }),
    regions: z.array(regionSchema).meta({ description: "The country's first-level subdivisions sorted by name; empty for a country without any (a free-text region is asked then)." }),
  })
  .meta({ id: "RegionsResponse", description: "A country's first-level ISO 3166-2 subdivisions." });
export type RegionsResponse = z.infer<typeof regionsResponseSchema>;
