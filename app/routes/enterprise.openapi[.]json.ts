import type { LoaderFunctionArgs } from "@remix-run/node";
import { handle, json } from "~/lib/api.server";

/** GET /enterprise/openapi.json: the OpenAPI 3 document of the enterprise interface (public, like any API description). */
export const loader = handle(({ request, context }: LoaderFunctionArgs) => json(request, context.services.enterpriseOpenApi(), { cache: "public" }));
