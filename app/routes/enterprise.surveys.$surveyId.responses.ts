import { enterpriseListQuery } from "../../server/contract/surveys.ts";
import { parseQuery } from "~/lib/api.server";
import { enterpriseHandle, enterpriseJson, methodNotAllowed } from "~/lib/enterprise.server";

/** GET /enterprise/surveys/{surveyId}/responses (interface.md §4.1, §7). */
export const loader = enterpriseHandle(({ request, params, context }, storeId) =>
  enterpriseJson(request, context.services.surveys.listResponses(storeId, params.surveyId ?? "", parseQuery(request, enterpriseListQuery))),
);
export const action = methodNotAllowed("GET");
