/**
 * Configuration of AI content and translation, from the environment (validated with zod; a bad value
 * stops start-up with a message naming the variable). Tests pass overrides to `createServices`.
 *
 * CHORUS_AI_MIN_REVIEWS (30): published reviews a product or group needs before a summary is generated.
 * CHORUS_AI_KEYWORDS_MIN_REVIEWS (= CHORUS_AI_MIN_REVIEWS): the same for keyword topics.
 * CHORUS_AI_REGENERATE_FRACTION (0.2): regenerate when published reviews grew by this fraction.
 * CHORUS_AI_SWEEP_INTERVAL_MS (60000): how often the worker looks for scopes due for (re)generation (0: never).
 * CHORUS_AI_WORKER (1): 1 runs the background worker of the HTTP server in a worker thread, 0 disables it,
 *   `inline` runs it on the HTTP event loop (the behaviour before issue 8; for comparison only).
 * CHORUS_LLM_BASE_URL, CHORUS_LLM_MODEL, CHORUS_LLM_API_KEY: an OpenAI-compatible chat-completions service
 *   (e.g. http://127.0.0.1:11434/v1 for Ollama). Unset: the embedded engine only.
 * CHORUS_LLM_TIMEOUT_MS (20000), CHORUS_LLM_RETRIES (2), CHORUS_LLM_BACKOFF_MS (500).
 * CHORUS_TRANSLATE_PROVIDER (libretranslate | openai; default libretranslate when CHORUS_TRANSLATE_URL is set),
 * CHORUS_TRANSLATE_URL, CHORUS_TRANSLATE_API_KEY, CHORUS_TRANSLATE_MODEL, CHORUS_TRANSLATE_TIMEOUT_MS (10000).
 */
import { z } from "zod";

const int = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

const schema = z.object({
  CHORUS_AI_MIN_REVIEWS: int(30, 1),
  CHORUS_AI_KEYWORDS_MIN_REVIEWS: z.coerce.number().int().min(1).optional(),
  CHORUS_AI_REGENERATE_FRACTION: z.coerce.number().min(0).max(100).default(0.2),
  CHORUS_AI_SWEEP_INTERVAL_MS: int(60_000),
  CHORUS_AI_WORKER: z.enum(["0", "1", "inline"]).default("1"),
  CHORUS_LLM_BASE_URL: z.url().optional(),
  CHORUS_LLM_MODEL: z.string().min(1).default("llama3.1"),
  CHORUS_LLM_API_KEY: z.string().optional(),
  CHORUS_LLM_TIMEOUT_MS: int(20_000, 1),
  CHORUS_LLM_RETRIES: int(2),
  CHORUS_LLM_BACKOFF_MS: int(500),
  CHORUS_TRANSLATE_PROVIDER: z.enum(["libretranslate", "openai"]).optional(),
  CHORUS_TRANSLATE_URL: z.url().optional(),
  CHORUS_TRANSLATE_API_KEY: z.string().optional(),
  CHORUS_TRANSLATE_MODEL: z.string().min(1).optional(),
  CHORUS_TRANSLATE_TIMEOUT_MS: int(10_000, 1),
});

export type LlmConfig = { baseUrl: string; model: string; apiKey?: string; timeoutMs: number; retries: number; backoffMs: number };
export type TranslationConfig = { provider: "libretranslate" | "openai"; url: string; apiKey?: string; model?: string; timeoutMs: number } | null;
export type AiConfig = {
  minReviews: number;
  keywordsMinReviews: number;
  regenerateFraction: number;
  sweepIntervalMs: number;
  /** The HTTP server runs background generation (in a worker thread unless `workerInline`). */
  worker: boolean;
  /** Run background generation on the HTTP event loop instead of a worker thread (comparison only). */
  workerInline: boolean;
  llm: LlmConfig | null;
  translation: TranslationConfig;
};

/** Read AI and translation settings from `env`. @throws Error naming every bad variable. */
export function loadAiConfig(env: NodeJS.ProcessEnv = process.env): AiConfig {
  const r = schema.safeParse(env);
  if (!r.success) throw new Error(`Bad configuration: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const c = r.data;
  return {
    minReviews: c.CHORUS_AI_MIN_REVIEWS,
    keywordsMinReviews: c.CHORUS_AI_KEYWORDS_MIN_REVIEWS ?? c.CHORUS_AI_MIN_REVIEWS,
    regenerateFraction: c.CHORUS_AI_REGENERATE_FRACTION,
    sweepIntervalMs: c.CHORUS_AI_SWEEP_INTERVAL_MS,
    worker: c.CHORUS_AI_WORKER !== "0",
    workerInline: c.CHORUS_AI_WORKER === "inline",
    llm: c.CHORUS_LLM_BASE_URL
      ? {
          baseUrl: c.CHORUS_LLM_BASE_URL,
          model: c.CHORUS_LLM_MODEL,
          apiKey: c.CHORUS_LLM_API_KEY,
          timeoutMs: c.CHORUS_LLM_TIMEOUT_MS,
          retries: c.CHORUS_LLM_RETRIES,
          backoffMs: c.CHORUS_LLM_BACKOFF_MS,
        }
      : null,
    translation: c.CHORUS_TRANSLATE_URL
      ? {
          provider: c.CHORUS_TRANSLATE_PROVIDER ?? "libretranslate",
          url: c.CHORUS_TRANSLATE_URL,
          apiKey: c.CHORUS_TRANSLATE_API_KEY,
          model: c.CHORUS_TRANSLATE_MODEL,
          timeoutMs: c.CHORUS_TRANSLATE_TIMEOUT_MS,
        }
      : null,
  };
}
