import { enterpriseListQuery } from "../../server/contract/surveys.ts";
import { parseQuery } from "~/lib/api.server";
import { enterpriseHandle, enterpriseJson, methodNotAllowed } from "~/lib/enterprise.server";

/** GET /enterprise/surveys: survey discovery (the store's surveys, channel surveys and questions), paged. */
export const loader = enterpriseHandle(({ request, context }, storeId) =>
  enterpriseJson(request, context.services.surveys.listSurveys(storeId, parseQuery(request, enterpriseListQuery))),
);
export const action = methodNotAllowed("GET");
