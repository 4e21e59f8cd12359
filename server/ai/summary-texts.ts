/**
 * The words of the AI summary and the keyword topic names in the 16 widget languages
 * (server/contract/widget-locales.ts `UI_LOCALES`; docs/ai.md "Languages"). The summary's sentences are
 * rendered from its stored facts through these templates (./summary.ts `renderSummary`); the topic names are
 * the vocabulary Chorus generates (./keywords.ts `TOPICS`). A shopper's own words (keywords) are never
 * translated: they are quoted as written, in the language's quotation marks.
 *
 * Pure data. Placeholders: `{average}`, `{count}`, `{percent}` (numbers, formatted by the caller with
 * `Intl.NumberFormat`), `{topic}` (a topic name of the same language) and `{keywords}` (the quoted keywords in
 * the language's brackets, or "").
 */
import type { UiLocale } from "../contract/widget-locales.ts";

/** The topics of the keyword engine (./keywords.ts `TOPICS`), by key. */
export const TOPIC_KEYS = ["fit", "fabric", "comfort", "look", "value", "delivery", "care", "occasion"] as const;
export type TopicKey = (typeof TOPIC_KEYS)[number];

export type SummaryTexts = {
  /** Topic names. */
  topics: Record<TopicKey, string>;
  /** The opening: `{average}` out of 5 from `{count}` reviews, by plural category of `count` (`other` required). */
  rating: { one?: string; few?: string; many?: string; other: string };
  /** Share of reviewers recommending. */
  recommend: string;
  /** A most-praised topic. */
  praised: string;
  /** A most common complaint. */
  criticised: string;
  /** When no complaint reaches its threshold. */
  noComplaint: string;
  /** Quotation marks around a shopper's word, and the brackets around the list of them. */
  quote: [string, string];
  brackets: [string, string];
};

const de: SummaryTexts = {
  topics: { fit: "Passform und Größe", fabric: "Material und Qualität", comfort: "Tragekomfort", look: "Aussehen und Stil", value: "Preis-Leistung", delivery: "Lieferung", care: "Pflege und Waschen", occasion: "Anlässe" },
  rating: { one: "Durchschnittliche Bewertung: {average} von 5 aus {count} Bewertung.", other: "Durchschnittliche Bewertung: {average} von 5 aus {count} Bewertungen." },
  recommend: "{percent} der Bewertenden empfehlen es weiter.",
  praised: "{topic}: gelobt in {percent} der Bewertungen{keywords}.",
  criticised: "{topic}: bemängelt in {percent} der Bewertungen{keywords}.",
  noComplaint: "Keine Kritik kommt in mehr als {percent} der Bewertungen vor.",
  quote: ["„", "“"], brackets: [" (", ")"],
};
const pt: SummaryTexts = {
  topics: { fit: "Tamanho e caimento", fabric: "Tecido e qualidade", comfort: "Conforto", look: "Aspeto e estilo", value: "Relação qualidade-preço", delivery: "Entrega", care: "Cuidados e lavagem", occasion: "Ocasiões" },
  rating: { one: "Classificação média: {average} em 5, de {count} avaliação.", other: "Classificação média: {average} em 5, de {count} avaliações." },
  recommend: "{percent} dos clientes recomendam-no.",
  praised: "{topic}: elogiado em {percent} das avaliações{keywords}.",
  criticised: "{topic}: criticado em {percent} das avaliações{keywords}.",
  noComplaint: "Nenhuma crítica surge em mais de {percent} das avaliações.",
  quote: ["«", "»"], brackets: [" (", ")"],
};

/** Every language's summary words and topic names. */
export const SUMMARY_TEXTS: Record<UiLocale, SummaryTexts> = {
  en: {
    topics: { fit: "Fit and sizing", fabric: "Fabric and quality", comfort: "Comfort", look: "Look and style", value: "Value", delivery: "Delivery", care: "Care and washing", occasion: "Occasions" },
    rating: { one: "Average rating: {average} out of 5 from {count} review.", other: "Average rating: {average} out of 5 from {count} reviews." },
    recommend: "{percent} of reviewers recommend it.",
    praised: "{topic}: praised in {percent} of reviews{keywords}.",
    criticised: "{topic}: criticised in {percent} of reviews{keywords}.",
    noComplaint: "No complaint comes up in more than {percent} of reviews.",
    quote: ["“", "”"], brackets: [" (", ")"],
  },
  de,
  "de-formal": de,
  fr: {
    topics: { fit: "Coupe et taille", fabric: "Tissu et qualité", comfort: "Confort", look: "Allure et style", value: "Rapport qualité-prix", delivery: "Livraison", care: "Entretien et lavage", occasion: "Occasions" },
    rating: { one: "Note moyenne : {average} sur 5 d’après {count} avis.", other: "Note moyenne : {average} sur 5 d’après {count} avis." },
    recommend: "{percent} des clients le recommandent.",
    praised: "{topic} : salué dans {percent} des avis{keywords}.",
    criticised: "{topic} : critiqué dans {percent} des avis{keywords}.",
    noComplaint: "Aucune critique ne revient dans plus de {percent} des avis.",
    quote: ["« ", " »"], brackets: [" (", ")"],
  },
  es: {
    topics: { fit: "Talla y ajuste", fabric: "Tejido y calidad", comfort: "Comodidad", look: "Aspecto y estilo", value: "Relación calidad-precio", delivery: "Envío", care: "Cuidado y lavado", occasion: "Ocasiones" },
    rating: { one: "Valoración media: {average} de 5 en {count} reseña.", other: "Valoración media: {average} de 5 en {count} reseñas." },
    recommend: "El {percent} de los clientes lo recomienda.",
    praised: "{topic}: elogiado en el {percent} de las reseñas{keywords}.",
    criticised: "{topic}: criticado en el {percent} de las reseñas{keywords}.",
    noComplaint: "Ninguna queja aparece en más del {percent} de las reseñas.",
    quote: ["«", "»"], brackets: [" (", ")"],
  },
  it: {
    topics: { fit: "Vestibilità e taglia", fabric: "Tessuto e qualità", comfort: "Comodità", look: "Aspetto e stile", value: "Rapporto qualità-prezzo", delivery: "Consegna", care: "Cura e lavaggio", occasion: "Occasioni" },
    rating: { one: "Valutazione media: {average} su 5 da {count} recensione.", other: "Valutazione media: {average} su 5 da {count} recensioni." },
    recommend: "Il {percent} dei clienti lo consiglia.",
    praised: "{topic}: apprezzato nel {percent} delle recensioni{keywords}.",
    criticised: "{topic}: criticato nel {percent} delle recensioni{keywords}.",
    noComplaint: "Nessuna critica compare in più del {percent} delle recensioni.",
    quote: ["«", "»"], brackets: [" (", ")"],
  },
  nl: {
    topics: { fit: "Pasvorm en maat", fabric: "Stof en kwaliteit", comfort: "Draagcomfort", look: "Uiterlijk en stijl", value: "Prijs-kwaliteit", delivery: "Levering", care: "Onderhoud en wassen", occasion: "Gelegenheden" },
    rating: { one: "Gemiddelde score: {average} van 5 uit {count} beoordeling.", other: "Gemiddelde score: {average} van 5 uit {count} beoordelingen." },
    recommend: "{percent} van de klanten raadt het aan.",
    praised: "{topic}: geprezen in {percent} van de beoordelingen{keywords}.",
    criticised: "{topic}: bekritiseerd in {percent} van de beoordelingen{keywords}.",
    noComplaint: "Geen enkele klacht komt in meer dan {percent} van de beoordelingen voor.",
    quote: ["‘", "’"], brackets: [" (", ")"],
  },
  pt,
  "pt-BR": {
    ...pt,
    topics: { ...pt.topics, look: "Aparência e estilo", value: "Custo-benefício" },
    rating: { one: "Nota média: {average} de 5 em {count} avaliação.", other: "Nota média: {average} de 5 em {count} avaliações." },
    recommend: "{percent} dos clientes recomendam.",
    quote: ["“", "”"],
  },
  pl: {
    topics: { fit: "Krój i rozmiar", fabric: "Materiał i jakość", comfort: "Wygoda", look: "Wygląd i styl", value: "Stosunek jakości do ceny", delivery: "Dostawa", care: "Pielęgnacja i pranie", occasion: "Okazje" },
    rating: { other: "Średnia ocena: {average} na 5 na podstawie {count} opinii." },
    recommend: "{percent} klientów poleca ten produkt.",
    praised: "{topic}: chwalone w {percent} opinii{keywords}.",
    criticised: "{topic}: krytykowane w {percent} opinii{keywords}.",
    noComplaint: "Żadna uwaga krytyczna nie pojawia się w więcej niż {percent} opinii.",
    quote: ["„", "”"], brackets: [" (", ")"],
  },
  sv: {
    topics: { fit: "Passform och storlek", fabric: "Tyg och kvalitet", comfort: "Komfort", look: "Utseende och stil", value: "Prisvärdhet", delivery: "Leverans", care: "Skötsel och tvätt", occasion: "Tillfällen" },
    rating: { one: "Genomsnittligt betyg: {average} av 5 från {count} recension.", other: "Genomsnittligt betyg: {average} av 5 från {count} recensioner." },
    recommend: "{percent} av kunderna rekommenderar den.",
    praised: "{topic}: berömt i {percent} av recensionerna{keywords}.",
    criticised: "{topic}: kritiserat i {percent} av recensionerna{keywords}.",
    noComplaint: "Ingen kritik förekommer i mer än {percent} av recensionerna.",
    quote: ["”", "”"], brackets: [" (", ")"],
  },
  da: {
    topics: { fit: "Pasform og størrelse", fabric: "Stof og kvalitet", comfort: "Komfort", look: "Udseende og stil", value: "Valuta for pengene", delivery: "Levering", care: "Pleje og vask", occasion: "Lejligheder" },
    rating: { one: "Gennemsnitlig bedømmelse: {average} ud af 5 fra {count} anmeldelse.", other: "Gennemsnitlig bedømmelse: {average} ud af 5 fra {count} anmeldelser." },
    recommend: "{percent} af kunderne anbefaler den.",
    praised: "{topic}: rost i {percent} af anmeldelserne{keywords}.",
    criticised: "{topic}: kritiseret i {percent} af anmeldelserne{keywords}.",
    noComplaint: "Ingen kritik går igen i mere end {percent} af anmeldelserne.",
    quote: ["»", "«"], brackets: [" (", ")"],
  },
  ja: {
    topics: { fit: "サイズ感", fabric: "素材と品質", comfort: "着心地", look: "デザインとスタイル", value: "コストパフォーマンス", delivery: "配送", care: "お手入れと洗濯", occasion: "着用シーン" },
    rating: { other: "平均評価：5点中{average}点（レビュー{count}件）。" },
    recommend: "レビュアーの{percent}がおすすめしています。",
    praised: "{topic}：{percent}のレビューで高評価{keywords}。",
    criticised: "{topic}：{percent}のレビューで不満の声{keywords}。",
    noComplaint: "{percent}を超えるレビューで挙がる不満はありません。",
    quote: ["「", "」"], brackets: ["（", "）"],
  },
  ko: {
    topics: { fit: "핏과 사이즈", fabric: "소재와 품질", comfort: "착용감", look: "디자인과 스타일", value: "가성비", delivery: "배송", care: "관리와 세탁", occasion: "착용 상황" },
    rating: { other: "평균 평점: 5점 만점에 {average}점 (리뷰 {count}개)." },
    recommend: "리뷰어의 {percent}가 추천합니다.",
    praised: "{topic}: 리뷰의 {percent}에서 호평{keywords}.",
    criticised: "{topic}: 리뷰의 {percent}에서 불만{keywords}.",
    noComplaint: "리뷰의 {percent}를 넘게 언급된 불만은 없습니다.",
    quote: ["‘", "’"], brackets: [" (", ")"],
  },
  "zh-Hans": {
    topics: { fit: "尺码与版型", fabric: "面料与质量", comfort: "舒适度", look: "外观与风格", value: "性价比", delivery: "配送", care: "护理与洗涤", occasion: "穿着场合" },
    rating: { other: "平均评分 {average} 分（满分 5 分），共 {count} 条评价。" },
    recommend: "{percent} 的评价者推荐。",
    praised: "{topic}：{percent} 的评价给予好评{keywords}。",
    criticised: "{topic}：{percent} 的评价提出不满{keywords}。",
    noComplaint: "没有哪项不满出现在超过 {percent} 的评价中。",
    quote: ["“", "”"], brackets: ["（", "）"],
  },
  "zh-Hant": {
    topics: { fit: "尺寸與版型", fabric: "布料與品質", comfort: "舒適度", look: "外觀與風格", value: "性價比", delivery: "配送", care: "保養與洗滌", occasion: "穿著場合" },
    rating: { other: "平均評分 {average} 分（滿分 5 分），共 {count} 則評論。" },
    recommend: "{percent} 的評論者推薦。",
    praised: "{topic}：{percent} 的評論給予好評{keywords}。",
    criticised: "{topic}：{percent} 的評論提出不滿{keywords}。",
    noComplaint: "沒有哪項不滿出現在超過 {percent} 的評論中。",
    quote: ["「", "」"], brackets: ["（", "）"],
  },
};
