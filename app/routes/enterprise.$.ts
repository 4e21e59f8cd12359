import { notFound } from "../../server/contract/errors.ts";
import { enterpriseHandle } from "~/lib/enterprise.server";

/** Any /enterprise path no route matches: 401 without valid credentials, else the JSON 404. */
const unknownPath = enterpriseHandle(() => {
  throw notFound("No such endpoint", "endpoint_not_found");
});
export const loader = unknownPath;
export const action = unknownPath;
