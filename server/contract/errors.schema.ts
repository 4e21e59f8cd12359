/**
 * The zod schema of the one error body of every API, `{"error":{"description","code"?}}`, for the OpenAPI
 * documents and the contract tests. errors.ts keeps the `ErrorBody` type and the `ApiError` class free of
 * zod; the check below keeps the two in step.
 */
import { z } from "zod";
import type { ErrorBody } from "./errors.ts";

export const errorBodySchema = z
  .object({
    error: z.object({
      description: z.string().meta({ description: "What went wrong, in words safe to show to a person (names the parameter or field and the accepted values where that applies)." }),
      code: z.string().optional().meta({ description: "A stable machine-readable code for programs to branch on, e.g. `invalid_parameter`, `store_not_found`, `insufficient_points`." }),
    }),
  })
  .meta({
    id: "Error",
    description: "The body of every error response: 4xx, and 500 (code `internal`, a generic description, never a stack trace). The one exception is the enterprise API's 401, which has no body.",
  });

// Compile-time: the schema and ErrorBody describe the same shape (either way round).
type Inferred = z.infer<typeof errorBodySchema>;
export type ErrorBodyMatchesSchema = [Inferred] extends [ErrorBody] ? ([ErrorBody] extends [Inferred] ? true : never) : never;
true satisfies ErrorBodyMatchesSchema;
