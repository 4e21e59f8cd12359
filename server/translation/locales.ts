/**
 * One internal locale set for both `locale` code lists (docs/api.md, Query parameters and limits): codes are compared
 * case-insensitively (`pt-PT` = `pt-pt`, `zh-TW` = `zh-tw`), and `de-formal` / `de-informal` are German
 * with the register passed on to providers that support it.
 */

/** A target locale as the providers need it. */
export type TargetLocale = {
  /** Cache key and identity: lower-case code from the lists (`de-formal`, `pt-pt`, `zh-tw`). */
  key: string;
  /** ISO 639-1 base language, compared with a review's detected language (`de`, `pt`, `zh`). */
  language: string;
  /** LibreTranslate target code (`de`, `pt`, `pt-BR`, `zh-Hans`, `zh-Hant`, `nb`). */
  libre: string;
  /** English name for language-model prompts ("German", "Portuguese (Portugal)"). */
  name: string;
  /** Formality register, when the locale asks for one. */
  register?: "formal" | "informal";
};

const NAMES: Record<string, string> = {
  bg: "Bulgarian",
  cs: "Czech",
  da: "Danish",
  de: "German",
  el: "Greek",
  en: "English",
  es: "Spanish",
  fi: "Finnish",
  fr: "French",
  hi: "Hindi",
  hr: "Croatian",
  hu: "Hungarian",
  id: "Indonesian",
  it: "Italian",
  ja: "Japanese",
  ko: "Korean",
  lt: "Lithuanian",
  ms: "Malay",
  nb: "Norwegian Bokmål",
  nl: "Dutch",
  pl: "Polish",
  pt: "Portuguese",
  ro: "Romanian",
  ru: "Russian",
  sk: "Slovak",
  sl: "Slovenian",
  sr: "Serbian",
  sv: "Swedish",
  th: "Thai",
  tr: "Turkish",
  uk: "Ukrainian",
  vi: "Vietnamese",
  zh: "Chinese",
};

const SPECIAL: Record<string, Omit<TargetLocale, "key">> = {
  "de-formal": { language: "de", libre: "de", name: "German", register: "formal" },
  "de-informal": { language: "de", libre: "de", name: "German", register: "informal" },
  "pt-pt": { language: "pt", libre: "pt", name: "Portuguese (Portugal)" },
  "pt-br": { language: "pt", libre: "pt-BR", name: "Portuguese (Brazil)" },
  "zh-tw": { language: "zh", libre: "zh-Hant", name: "Chinese (Traditional, Taiwan)" },
  "zh-cn": { language: "zh", libre: "zh-Hans", name: "Chinese (Simplified)" },
};

/** Map a locale code of either list to the internal target. @returns null for a code of neither list. */
export function toTargetLocale(code: string): TargetLocale | null {
  const key = code.trim().toLowerCase();
  if (SPECIAL[key]) return { key, ...SPECIAL[key] };
  if (NAMES[key]) return { key, language: key, libre: key, name: NAMES[key] };
  return null;
}

/** Whether a review in `languageCode` (detected ISO 639-1) needs translating into `target`. */
export function needsTranslation(languageCode: string | undefined | null, target: TargetLocale): boolean {
  if (!languageCode) return false; // only auto-detected reviews are translated (locale rule 2)
  return languageCode.toLowerCase().split("-")[0] !== target.language;
}
