/**
 * The default, offline keyword topics engine (docs/ai.md, Answers): wink-nlp with its English lite model
 * tokenises, sentence-splits, part-of-speech tags and lemmatises each review; keyword phrases are
 * theme nouns ("fabric"), adjective + noun phrases ("soft fabric", also from "the fabric is soft"),
 * a few theme adjectives ("comfortable") and fixed sizing phrases ("true to size", "runs small").
 * Each keyword belongs to one general theme (topic). A review's mentions are deduplicated, so the
 * number of stored (keyword, review) identifications is the keyword's `occurrences`.
 *
 * No network and no model download: the model ships in the npm package.
 */
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import type { SizingKeyword } from "./summary-texts.ts";

/** Bumped whenever extraction changes: reviews analysed by an older version are analysed again. */
export const KEYWORD_ENGINE_VERSION = "kw-2";

export type Polarity = -1 | 0 | 1;
/** One keyword identified in one review. */
export type KeywordMention = { keyword: string; topic: string; polarity: Polarity };

/** General themes, in display order when counts tie. */
export const TOPICS = {
  fit: "Fit and sizing",
  fabric: "Fabric and quality",
  comfort: "Comfort",
  look: "Look and style",
  value: "Value",
  delivery: "Delivery",
  care: "Care and washing",
  occasion: "Occasions",
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

/** Theme nouns (lemmas) → topic. */
const NOUNS: Record<string, TopicName> = {};
const addNouns = (topic: TopicName, words: string) => {
  for (const w of words.split(/\s+/)) if (w) NOUNS[w] = topic;
};
addNouns(TOPICS.fit, "fit size sizing length waist waistband bust chest hip hips shoulder sleeve arm torso inseam petite measurement rise hem");
addNouns(TOPICS.fabric, "fabric material quality cotton linen silk wool knit stitching seam thread lining zipper button texture polyester rayon denim lace construction");
addNouns(TOPICS.comfort, "comfort stretch softness warmth");
addNouns(TOPICS.look, "color colour style design pattern print look shape silhouette detail detailing embroidery neckline drape");
addNouns(TOPICS.value, "price value money sale cost deal");
addNouns(TOPICS.delivery, "delivery shipping package packaging arrival");
addNouns(TOPICS.care, "wash washing dryer wrinkle care");
addNouns(TOPICS.occasion, "work office wedding party vacation beach holiday summer winter fall spring");

/** Theme adjectives that are keywords on their own. */
const ADJECTIVES: Record<string, TopicName> = {
  comfortable: TOPICS.comfort,
  cozy: TOPICS.comfort,
  itchy: TOPICS.comfort,
  scratchy: TOPICS.comfort,
  breathable: TOPICS.comfort,
  flattering: TOPICS.look,
  sheer: TOPICS.fabric,
  "see-through": TOPICS.fabric,
  wrinkled: TOPICS.care,
};

/** Adjectives that describe nothing about the product ("other fabric", "first wash"). */
const NON_DESCRIPTIVE = new Set(
  "other same first last next many few own such much more most only different whole entire several usual regular normal additional extra previous certain main overall own real actual".split(" "),
);

/**
 * Fixed phrases with an inherent polarity (sizing advice is a praise or a complaint by itself). Their keywords are
 * Chorus's words, not a shopper's: each is shown in the page's language (./summary-texts.ts `SIZING_KEYWORDS`).
 */
const PHRASES: { re: RegExp; keyword: SizingKeyword; topic: TopicName; polarity: Polarity }[] = [
  { re: /\btrue to size\b|\btts\b/, keyword: "true to size", topic: TOPICS.fit, polarity: 1 },
  { re: /\b(?:runs?|running|ran|fits?|fitting|is|was|are|were)\s+(?:a\s+(?:bit|little|tad)\s+|very\s+|really\s+|slightly\s+|too\s+)?small\b/, keyword: "runs small", topic: TOPICS.fit, polarity: -1 },
  {
    re: /\b(?:runs?|running|ran|fits?|fitting|is|was|are|were)\s+(?:a\s+(?:bit|little|tad)\s+|very\s+|really\s+|slightly\s+|too\s+)?(?:large|big)\b/,
    keyword: "runs large",
    topic: TOPICS.fit,
    polarity: -1,
  },
  { re: /\bsized? up\b/, keyword: "size up", topic: TOPICS.fit, polarity: 0 },
  { re: /\bsized? down\b/, keyword: "size down", topic: TOPICS.fit, polarity: 0 },
];

/** Every theme term (nouns, adjectives, phrases) with its topic: used to check LLM text for unsupported topics. */
export function themeTerms(): { term: string; topic: TopicName }[] {
  return [
    ...Object.entries(NOUNS).map(([term, topic]) => ({ term, topic })),
    ...Object.entries(ADJECTIVES).map(([term, topic]) => ({ term, topic })),
    ...PHRASES.map((p) => ({ term: p.keyword, topic: p.topic })),
  ];
}

export type KeywordEngine = {
  version: string;
  /**
   * Keywords identified in one review (deduplicated by keyword; a keyword's polarity is -1 when any
   * of its sentences is negative, else 1 when any is positive, else 0).
   * @param rating 1..5, the fallback polarity when the sentence is neutral (≥4 praise, ≤2 complaint).
   */
  analyse(title: string, body: string, rating: number): KeywordMention[];
};

type Nlp = ReturnType<typeof winkNLP>;

/** Create the engine. The model loads on first use (about 1 s), once per engine. */
export function createKeywordEngine(): KeywordEngine {
  let nlp: Nlp | null = null;
  const load = () => (nlp ??= winkNLP(model, ["sbd", "pos", "negation", "sentiment"]));

  return {
    version: KEYWORD_ENGINE_VERSION,
    analyse(title, body, rating) {
      const text = [title, body]
        .filter((s) => s && s.trim())
        .map((s) => s.trim().replace(/[.!?]*$/, (m) => m || "."))
        .join(" ");
      if (!text) return [];
      const n = load();
      const its = n.its;
      const ratingPolarity: Polarity = rating >= 4 ? 1 : rating <= 2 ? -1 : 0;
      const found = new Map<string, KeywordMention>();
      const add = (keyword: string, topic: TopicName, polarity: Polarity) => {
        const prev = found.get(keyword);
        if (!prev) found.set(keyword, { keyword, topic, polarity });
        else if (prev.polarity !== -1 && (polarity === -1 || (polarity === 1 && prev.polarity === 0))) prev.polarity = polarity;
      };
      const doc = n.readDoc(text);
      doc.sentences().each((sentence: { out(f?: unknown): unknown; tokens(): { each(cb: (t: { out(f?: unknown): unknown }) => void): void } }) => {
        const sentiment = Number(sentence.out(its.sentiment));
        const sentencePolarity: Polarity = sentiment > 0.1 ? 1 : sentiment < -0.1 ? -1 : ratingPolarity;
        const lower = String(sentence.out()).toLowerCase();
        for (const p of PHRASES) if (p.re.test(lower)) add(p.keyword, p.topic, p.polarity);

        const tokens: { pos: string; lemma: string; negated: boolean }[] = [];
        sentence.tokens().each((t: { out(f?: unknown): unknown }) => {
          tokens.push({ pos: String(t.out(its.pos)), lemma: String(t.out(its.lemma)).toLowerCase(), negated: Boolean(t.out(its.negationFlag)) });
        });
        for (let i = 0; i < tokens.length; i++) {
          const t = tokens[i];
          // the sizing phrases above own "size"/"fit" when the tagger reads them as verbs
          if (t.pos === "NOUN" && NOUNS[t.lemma]) {
            const topic = NOUNS[t.lemma];
            add(t.lemma, topic, t.negated ? -1 : sentencePolarity);
            const adj = tokens[i - 1];
            if (adj && adj.pos === "ADJ" && descriptive(adj.lemma) && !adj.negated) add(`${adj.lemma} ${t.lemma}`, topic, sentencePolarity);
            // "the fabric is (very) soft" → "soft fabric"
            let j = i + 1;
            if (tokens[j]?.pos === "AUX" && tokens[j].lemma === "be") {
              j++;
              while (tokens[j]?.pos === "ADV" || tokens[j]?.pos === "PART") j++;
              const pred = tokens[j];
              if (pred && pred.pos === "ADJ" && descriptive(pred.lemma) && !pred.negated && tokens[j - 1]?.lemma !== "not") {
                add(`${pred.lemma} ${t.lemma}`, topic, sentencePolarity);
              }
            }
          } else if (t.pos === "VERB" && t.lemma === "fit") {
            add("fit", TOPICS.fit, t.negated ? -1 : sentencePolarity);
          } else if (t.pos === "ADJ" && ADJECTIVES[t.lemma]) {
            // "not flattering" is its own keyword (a complaint), never counted as "flattering"
            if (t.negated) add(`not ${t.lemma}`, ADJECTIVES[t.lemma], -1);
            else add(t.lemma, ADJECTIVES[t.lemma], sentencePolarity);
          }
        }
      });
      return [...found.values()];
    },
  };
}

/** Everyday words that do not by themselves name a theme in free text ("it works", "looks great"). */
const AMBIGUOUS = new Set("work fall spring summer winter look rise arm care value deal detail fit size sale order".split(" "));

const descriptive = (lemma: string) => /^[a-z][a-z-]{1,24}$/.test(lemma) && !NON_DESCRIPTIVE.has(lemma);

/**
 * Which topics a free text names, by whole-word theme terms (case-insensitive; plural -s allowed).
 * Used to reject a language-model summary that names a topic no review supports.
 */
export function topicsNamedIn(text: string): Map<TopicName, string[]> {
  const lower = text.toLowerCase();
  const out = new Map<TopicName, string[]>();
  for (const { term, topic } of themeTerms()) {
    if (AMBIGUOUS.has(term)) continue;
    const re = new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:s|es)?\\b`);
    if (re.test(lower)) out.set(topic, [...(out.get(topic) ?? []), term]);
  }
  return out;
}
