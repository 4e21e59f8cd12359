/**
 * Translation providers: one interface, a LibreTranslate-compatible HTTP client and an OpenAI-compatible
 * chat-completions client. Both translate a batch of texts from one source language into one target.
 */
import { chatCompletion } from "../ai/llm.ts";
import type { TranslationConfig } from "../ai/config.ts";
import type { TargetLocale } from "./locales.ts";

export type TranslationProvider = {
  /** Short name stored with cached translations. */
  name: string;
  /**
   * Translate `texts` (same order, same length) from `source` (ISO 639-1) into `target`.
   * @throws Error on any failure (network, timeout, status, malformed answer); callers serve the original.
   */
  translate(texts: string[], source: string, target: TargetLocale): Promise<string[]>;
};

/**
 * LibreTranslate (`POST {url}/translate` with `q` as an array, `source`, `target`, `format: "text"`,
 * optional `api_key`) → `{ translatedText: string[] }`. The formality register is not supported there.
 */
export function libreTranslateProvider(config: { url: string; apiKey?: string; timeoutMs: number }): TranslationProvider {
  const endpoint = `${config.url.replace(/\/$/, "")}/translate`;
  return {
    name: "libretranslate",
    async translate(texts, source, target) {
      if (texts.length === 0) return [];
      const res = await fetch(endpoint, {
        method: "POST",
        signal: AbortSignal.timeout(config.timeoutMs),
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ q: texts, source, target: target.libre, format: "text", ...(config.apiKey ? { api_key: config.apiKey } : {}) }),
      });
      if (!res.ok) throw new Error(`LibreTranslate answered ${res.status}`);
      const body = (await res.json()) as { translatedText?: unknown };
      const out = Array.isArray(body.translatedText) ? body.translatedText : typeof body.translatedText === "string" && texts.length === 1 ? [body.translatedText] : null;
      if (!out || out.length !== texts.length || out.some((t) => typeof t !== "string")) throw new Error("LibreTranslate answer has no translatedText array of the right length");
      return out as string[];
    },
  };
}

/** An OpenAI-compatible chat model asked for a JSON array of translations (the register is passed on). */
export function openAiTranslationProvider(config: { url: string; apiKey?: string; model?: string; timeoutMs: number }): TranslationProvider {
  return {
    name: `openai:${config.model ?? "default"}`,
    async translate(texts, source, target) {
      if (texts.length === 0) return [];
      const register = target.register ? ` Use the ${target.register} register (${target.register === "formal" ? "Sie" : "du"}).` : "";
      const content = await chatCompletion(
        { baseUrl: config.url, model: config.model ?? "gpt-4o-mini", apiKey: config.apiKey, timeoutMs: config.timeoutMs, retries: 1, backoffMs: 300 },
        [
          {
            role: "system",
            content: `Translate each string of the JSON array from ISO language "${source}" into ${target.name}.${register} Answer with only a JSON array of strings of the same length and order.`,
          },
          { role: "user", content: JSON.stringify(texts) },
        ],
        { temperature: 0 },
      );
      const json = content.replace(/^```(?:json)?\s*|\s*```$/g, "");
      const out = JSON.parse(json) as unknown;
      if (!Array.isArray(out) || out.length !== texts.length || out.some((t) => typeof t !== "string")) throw new Error("model answer is not a JSON array of the right length");
      return out as string[];
    },
  };
}

/** The configured provider, or null when none is configured (then the original text is served). */
export function createTranslationProvider(config: TranslationConfig): TranslationProvider | null {
  if (!config) return null;
  return config.provider === "openai" ? openAiTranslationProvider(config) : libreTranslateProvider(config);
}
