/**
 * Optional language-model provider: an OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM,
 * llama.cpp server ...). `POST {baseUrl}/chat/completions`, a timeout per attempt, retries with
 * exponential backoff. Its summaries are checked against the counted facts before they are used
 * (`checkSummary`); any failure makes the caller fall back to the embedded engine.
 */
import type { LlmConfig } from "./config.ts";
import type { KeywordTopic } from "../contract/storefront.ts";
import type { SummaryClaim } from "./summary.ts";
import { topicsNamedIn } from "./keywords.ts";

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** Why a language-model answer was not used. */
export class LlmError extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One chat completion: the assistant message text.
 * @throws LlmError after `retries + 1` failed attempts (network error, timeout after `timeoutMs`,
 *   non-2xx status, or an answer without `choices[0].message.content`).
 */
export async function chatCompletion(config: LlmConfig, messages: ChatMessage[], options: { temperature?: number } = {}): Promise<string> {
  const url = `${config.baseUrl.replace(/\/$/, "")}/chat/completions`;
  let last = "no attempt";
  for (let attempt = 0; attempt <= config.retries; attempt++) {
    if (attempt > 0) await sleep(config.backoffMs * 2 ** (attempt - 1));
    try {
      const res = await fetch(url, {
        method: "POST",
        signal: AbortSignal.timeout(config.timeoutMs),
        headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
        body: JSON.stringify({ model: config.model, messages, temperature: options.temperature ?? 0.2, stream: false }),
      });
      const text = await res.text();
      if (!res.ok) throw new LlmError(`status ${res.status}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new LlmError("answer is not JSON");
      }
      const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      if (typeof content !== "string" || !content.trim()) throw new LlmError("answer has no choices[0].message.content");
      return content.trim();
    } catch (error) {
      last =
        error instanceof LlmError
          ? error.message
          : error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
            ? `timeout after ${config.timeoutMs} ms`
            : `network error: ${(error as Error).message}`;
    }
  }
  throw new LlmError(`language model failed after ${config.retries + 1} attempts (${last})`);
}

/** Facts handed to the model: nothing else may appear in its summary. */
export type SummaryFacts = {
  subject: string;
  reviewCount: number;
  averageRating: number;
  claims: SummaryClaim[];
  keywordTopics: KeywordTopic[];
  excerpts: string[];
};

/** Maximum length of an accepted model summary (characters). */
export const MAX_SUMMARY_CHARS = 1200;

/**
 * Reject a model summary that is empty, too long, or names a theme no review of the scope supports
 * (a theme with no keyword identified in any review). @returns the reason, or null when acceptable.
 */
export function checkSummary(text: string, supportedTopics: Set<string>): string | null {
  if (!text.trim()) return "empty summary";
  if (text.length > MAX_SUMMARY_CHARS) return `summary longer than ${MAX_SUMMARY_CHARS} characters`;
  for (const [topic, terms] of topicsNamedIn(text)) {
    if (!supportedTopics.has(topic)) return `summary names "${terms[0]}" (${topic}) but no review mentions it`;
  }
  return null;
}

/** Ask the model for a summary of the facts. @throws LlmError (transport) — the caller checks the text. */
export async function llmSummary(config: LlmConfig, facts: SummaryFacts): Promise<string> {
  const system =
    "You summarise customer reviews for an online shop. Write 2 to 4 plain sentences in English, no lists, no markdown. " +
    "Use only the facts given: do not invent themes, numbers or product details. Mention complaints honestly.";
  const user = JSON.stringify({
    subject: facts.subject,
    reviewCount: facts.reviewCount,
    averageRating: facts.averageRating,
    findings: facts.claims.filter((c) => c.kind !== "aggregate").map((c) => ({ kind: c.kind, theme: c.topic, keywords: c.keywords, percentOfReviews: c.sharePercent })),
    keywordTopics: facts.keywordTopics,
    reviewExcerpts: facts.excerpts,
  });
  const out = await chatCompletion(config, [
    { role: "system", content: system },
    { role: "user", content: user },
  ]);
  return out.replace(/^["'\s]+|["'\s]+$/g, "");
}
