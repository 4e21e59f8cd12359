/**
 * The words of the AI summary and the keyword topic names in the 16 widget languages
 * (server/contract/widget-locales.ts `UI_LOCALES`; docs/ai.md "Languages"). The summary's sentences are
 * rendered from its stored facts through these templates (./summary.ts `renderSummary`); the topic names are
 * the vocabulary Chorus generates (./keywords.ts `TOPICS`), and so are the sizing keywords it generates ("true to
 * size", "runs small"...: `SIZING_KEYWORDS`, shown by a label while the stored keyword stays the filter value). A
 * shopper's own words (keywords) are never translated: they are quoted as written, in the language's quotation marks.
 *
 * Pure data. Placeholders: `{average}`, `{count}`, `{percent}` (numbers, formatted by the caller with
 * `Intl.NumberFormat`), `{topic}` (a topic name of the same language) and `{keywords}` (the quoted keywords in
 * the language's brackets, or "").
 */
import type { UiLocale } from "../contract/widget-locales.ts";

/** The topics of the keyword engine (./keywords.ts `TOPICS`), by key. */
export const TOPIC_KEYS = ["fit", "fabric", "comfort", "look", "value", "delivery", "care", "occasion"] as const;
export type TopicKey = (typeof TOPIC_KEYS)[number];

/**
 * The sizing keywords Chorus itself generates (./keywords.ts `PHRASES`), as stored and filtered by (`?keyword=`):
 * unlike a shopper's own words, these are shown in the page's language (their `label`), keyed by the stored keyword.
 */
export const SIZING_KEYWORDS = ["true to size", "runs small", "runs large", "size up", "size down"] as const;
export type SizingKeyword = (typeof SIZING_KEYWORDS)[number];

export type SummaryTexts = {
  /** Topic names. */
  topics: Record<TopicKey, string>;
  /** The display labels of the sizing keywords Chorus generates (the stored keyword stays the filter value). */
  sizing: Record<SizingKeyword, string>;
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
  topics: {
    fit: "Passform und Größe",
    fabric: "Material und Qualität",
    comfort: "Tragekomfort",
    look: "Aussehen und Stil",
    value: "Preis-Leistung",
    delivery: "Lieferung",
    care: "Pflege und Waschen",
    occasion: "Anlässe",
  },
  sizing: { "true to size": "fällt normal aus", "runs small": "fällt klein aus", "runs large": "fällt groß aus", "size up": "eine Größe größer nehmen", "size down": "eine Größe kleiner nehmen" },
  rating: { one: "Durchschnittliche Bewertung: {average} von 5 aus {count} Bewertung.", other: "Durchschnittliche Bewertung: {average} von 5 aus {count} Bewertungen." },
  recommend: "{percent} der Bewertenden empfehlen es weiter.",
  praised: "{topic}: gelobt in {percent} der Bewertungen{keywords}.",
  criticised: "{topic}: bemängelt in {percent} der Bewertungen{keywords}.",
  noComplaint: "Keine Kritik kommt in mehr als {percent} der Bewertungen vor.",
  quote: ["„", "“"],
  brackets: [" (", ")"],
};
const pt: SummaryTexts = {
  topics: {
    fit: "Tamanho e caimento",
    fabric: "Tecido e qualidade",
    comfort: "Conforto",
    look: "Aspeto e estilo",
    value: "Relação qualidade-preço",
    delivery: "Entrega",
    care: "Cuidados e lavagem",
    occasion: "Ocasiões",
  },
  sizing: { "true to size": "tamanho normal", "runs small": "veste pequeno", "runs large": "veste grande", "size up": "escolher um tamanho acima", "size down": "escolher um tamanho abaixo" },
  rating: { one: "Classificação média: {average} em 5, de {count} avaliação.", other: "Classificação média: {average} em 5, de {count} avaliações." },
  recommend: "{percent} dos clientes recomendam-no.",
  praised: "{topic}: elogiado em {percent} das avaliações{keywords}.",
  criticised: "{topic}: criticado em {percent} das avaliações{keywords}.",
  noComplaint: "Nenhuma crítica surge em mais de {percent} das avaliações.",
  quote: ["«", "»"],
  brackets: [" (", ")"],
};

/** Every language's summary words and topic names. */
export const SUMMARY_TEXTS: Record<UiLocale, SummaryTexts> = {
  en: {
    topics: { fit: "Fit and sizing", fabric: "Fabric and quality", comfort: "Comfort", look: "Look and style", value: "Value", delivery: "Delivery", care: "Care and washing", occasion: "Occasions" },
    sizing: { "true to size": "true to size", "runs small": "runs small", "runs large": "runs large", "size up": "size up", "size down": "size down" },
    rating: { one: "Average rating: {average} out of 5 from {count} review.", other: "Average rating: {average} out of 5 from {count} reviews." },
    recommend: "{percent} of reviewers recommend it.",
    praised: "{topic}: praised in {percent} of reviews{keywords}.",
    criticised: "{topic}: criticised in {percent} of reviews{keywords}.",
    noComplaint: "No complaint comes up in more than {percent} of reviews.",
    quote: ["“", "”"],
    brackets: [" (", ")"],
  },
  de,
  "de-formal": de,
  fr: {
    topics: {
      fit: "Coupe et taille",
      fabric: "Tissu et qualité",
      comfort: "Confort",
      look: "Allure et style",
      value: "Rapport qualité-prix",
      delivery: "Livraison",
      care: "Entretien et lavage",
      occasion: "Occasions",
    },
    sizing: { "true to size": "taille normalement", "runs small": "taille petit", "runs large": "taille grand", "size up": "prendre la taille au-dessus", "size down": "prendre la taille en dessous" },
    rating: { one: "Note moyenne : {average} sur 5 d’après {count} avis.", other: "Note moyenne : {average} sur 5 d’après {count} avis." },
    recommend: "{percent} des clients le recommandent.",
    praised: "{topic} : salué dans {percent} des avis{keywords}.",
    criticised: "{topic} : critiqué dans {percent} des avis{keywords}.",
    noComplaint: "Aucune critique ne revient dans plus de {percent} des avis.",
    quote: ["« ", " »"],
    brackets: [" (", ")"],
  },
  es: {
    topics: {
      fit: "Talla y ajuste",
      fabric: "Tejido y calidad",
      comfort: "Comodidad",
      look: "Aspecto y estilo",
      value: "Relación calidad-precio",
      delivery: "Envío",
      care: "Cuidado y lavado",
      occasion: "Ocasiones",
    },
    sizing: { "true to size": "talla real", "runs small": "queda pequeño", "runs large": "queda grande", "size up": "pedir una talla más", "size down": "pedir una talla menos" },
    rating: { one: "Valoración media: {average} de 5 en {count} reseña.", other: "Valoración media: {average} de 5 en {count} reseñas." },
    recommend: "El {percent} de los clientes lo recomienda.",
    praised: "{topic}: elogiado en el {percent} de las reseñas{keywords}.",
    criticised: "{topic}: criticado en el {percent} de las reseñas{keywords}.",
    noComplaint: "Ninguna queja aparece en más del {percent} de las reseñas.",
    quote: ["«", "»"],
    brackets: [" (", ")"],
  },
  it: {
    topics: {
      fit: "Vestibilità e taglia",
      fabric: "Tessuto e qualità",
      comfort: "Comodità",
      look: "Aspetto e stile",
      value: "Rapporto qualità-prezzo",
      delivery: "Consegna",
      care: "Cura e lavaggio",
      occasion: "Occasioni",
    },
    sizing: {
      "true to size": "vestibilità regolare",
      "runs small": "veste piccolo",
      "runs large": "veste grande",
      "size up": "prendere una taglia in più",
      "size down": "prendere una taglia in meno",
    },
    rating: { one: "Valutazione media: {average} su 5 da {count} recensione.", other: "Valutazione media: {average} su 5 da {count} recensioni." },
    recommend: "Il {percent} dei clienti lo consiglia.",
    praised: "{topic}: apprezzato nel {percent} delle recensioni{keywords}.",
    criticised: "{topic}: criticato nel {percent} delle recensioni{keywords}.",
    noComplaint: "Nessuna critica compare in più del {percent} delle recensioni.",
    quote: ["«", "»"],
    brackets: [" (", ")"],
  },
  nl: {
    topics: {
      fit: "Pasvorm en maat",
      fabric: "Stof en kwaliteit",
      comfort: "Draagcomfort",
      look: "Uiterlijk en stijl",
      value: "Prijs-kwaliteit",
      delivery: "Levering",
      care: "Onderhoud en wassen",
      occasion: "Gelegenheden",
    },
    sizing: { "true to size": "valt normaal", "runs small": "valt klein", "runs large": "valt groot", "size up": "een maat groter nemen", "size down": "een maat kleiner nemen" },
    rating: { one: "Gemiddelde score: {average} van 5 uit {count} beoordeling.", other: "Gemiddelde score: {average} van 5 uit {count} beoordelingen." },
    recommend: "{percent} van de klanten raadt het aan.",
    praised: "{topic}: geprezen in {percent} van de beoordelingen{keywords}.",
    criticised: "{topic}: bekritiseerd in {percent} van de beoordelingen{keywords}.",
    noComplaint: "Geen enkele klacht komt in meer dan {percent} van de beoordelingen voor.",
    quote: ["‘", "’"],
    brackets: [" (", ")"],
  },
  pt,
  "pt-BR": {
    ...pt,
    topics: { ...pt.topics, look: "Aparência e estilo", value: "Custo-benefício" },
    sizing: { "true to size": "tamanho certo", "runs small": "veste pequeno", "runs large": "veste grande", "size up": "pedir um número maior", "size down": "pedir um número menor" },
    rating: { one: "Nota média: {average} de 5 em {count} avaliação.", other: "Nota média: {average} de 5 em {count} avaliações." },
    recommend: "{percent} dos clientes recomendam.",
    quote: ["“", "”"],
  },
  pl: {
    topics: {
      fit: "Krój i rozmiar",
      fabric: "Materiał i jakość",
      comfort: "Wygoda",
      look: "Wygląd i styl",
      value: "Stosunek jakości do ceny",
      delivery: "Dostawa",
      care: "Pielęgnacja i pranie",
      occasion: "Okazje",
    },
    sizing: { "true to size": "rozmiar zgodny", "runs small": "rozmiarówka zaniżona", "runs large": "rozmiarówka zawyżona", "size up": "weź większy rozmiar", "size down": "weź mniejszy rozmiar" },
    rating: { other: "Średnia ocena: {average} na 5 na podstawie {count} opinii." },
    recommend: "{percent} klientów poleca ten produkt.",
    praised: "{topic}: chwalone w {percent} opinii{keywords}.",
    criticised: "{topic}: krytykowane w {percent} opinii{keywords}.",
    noComplaint: "Żadna uwaga krytyczna nie pojawia się w więcej niż {percent} opinii.",
    quote: ["„", "”"],
    brackets: [" (", ")"],
  },
  sv: {
    topics: {
      fit: "Passform och storlek",
      fabric: "Tyg och kvalitet",
      comfort: "Komfort",
      look: "Utseende och stil",
      value: "Prisvärdhet",
      delivery: "Leverans",
      care: "Skötsel och tvätt",
      occasion: "Tillfällen",
    },
    sizing: { "true to size": "normal i storleken", "runs small": "liten i storleken", "runs large": "stor i storleken", "size up": "ta en storlek större", "size down": "ta en storlek mindre" },
    rating: { one: "Genomsnittligt betyg: {average} av 5 från {count} recension.", other: "Genomsnittligt betyg: {average} av 5 från {count} recensioner." },
    recommend: "{percent} av kunderna rekommenderar den.",
    praised: "{topic}: berömt i {percent} av recensionerna{keywords}.",
    criticised: "{topic}: kritiserat i {percent} av recensionerna{keywords}.",
    noComplaint: "Ingen kritik förekommer i mer än {percent} av recensionerna.",
    quote: ["”", "”"],
    brackets: [" (", ")"],
  },
  da: {
    topics: {
      fit: "Pasform og størrelse",
      fabric: "Stof og kvalitet",
      comfort: "Komfort",
      look: "Udseende og stil",
      value: "Valuta for pengene",
      delivery: "Levering",
      care: "Pleje og vask",
      occasion: "Lejligheder",
    },
    sizing: {
      "true to size": "normal i størrelsen",
      "runs small": "lille i størrelsen",
      "runs large": "stor i størrelsen",
      "size up": "tag en størrelse større",
      "size down": "tag en størrelse mindre",
    },
    rating: { one: "Gennemsnitlig bedømmelse: {average} ud af 5 fra {count} anmeldelse.", other: "Gennemsnitlig bedømmelse: {average} ud af 5 fra {count} anmeldelser." },
    recommend: "{percent} af kunderne anbefaler den.",
    praised: "{topic}: rost i {percent} af anmeldelserne{keywords}.",
    criticised: "{topic}: kritiseret i {percent} af anmeldelserne{keywords}.",
    noComplaint: "Ingen kritik går igen i mere end {percent} af anmeldelserne.",
    quote: ["»", "«"],
    brackets: [" (", ")"],
  },
  ja: {
    topics: { fit: "サイズ感", fabric: "素材と品質", comfort: "着心地", look: "デザインとスタイル", value: "コストパフォーマンス", delivery: "配送", care: "お手入れと洗濯", occasion: "着用シーン" },
    sizing: { "true to size": "サイズ通り", "runs small": "小さめ", "runs large": "大きめ", "size up": "ワンサイズ上がおすすめ", "size down": "ワンサイズ下がおすすめ" },
    rating: { other: "平均評価：5点中{average}点（レビュー{count}件）。" },
    recommend: "レビュアーの{percent}がおすすめしています。",
    praised: "{topic}：{percent}のレビューで高評価{keywords}。",
    criticised: "{topic}：{percent}のレビューで不満の声{keywords}。",
    noComplaint: "{percent}を超えるレビューで挙がる不満はありません。",
    quote: ["「", "」"],
    brackets: ["（", "）"],
  },
  ko: {
    topics: { fit: "핏과 사이즈", fabric: "소재와 품질", comfort: "착용감", look: "디자인과 스타일", value: "가성비", delivery: "배송", care: "관리와 세탁", occasion: "착용 상황" },
    sizing: { "true to size": "정사이즈", "runs small": "작게 나옴", "runs large": "크게 나옴", "size up": "한 치수 크게", "size down": "한 치수 작게" },
    rating: { other: "평균 평점: 5점 만점에 {average}점 (리뷰 {count}개)." },
    recommend: "리뷰어의 {percent}가 추천합니다.",
    praised: "{topic}: 리뷰의 {percent}에서 호평{keywords}.",
    criticised: "{topic}: 리뷰의 {percent}에서 불만{keywords}.",
    noComplaint: "리뷰의 {percent}를 넘게 언급된 불만은 없습니다.",
    quote: ["‘", "’"],
    brackets: [" (", ")"],
  },
  "zh-Hans": {
    topics: { fit: "尺码与版型", fabric: "面料与质量", comfort: "舒适度", look: "外观与风格", value: "性价比", delivery: "配送", care: "护理与洗涤", occasion: "穿着场合" },
    sizing: { "true to size": "尺码标准", "runs small": "偏小", "runs large": "偏大", "size up": "建议选大一码", "size down": "建议选小一码" },
    rating: { other: "平均评分 {average} 分（满分 5 分），共 {count} 条评价。" },
    recommend: "{percent} 的评价者推荐。",
    praised: "{topic}：{percent} 的评价给予好评{keywords}。",
    criticised: "{topic}：{percent} 的评价提出不满{keywords}。",
    noComplaint: "没有哪项不满出现在超过 {percent} 的评价中。",
    quote: ["“", "”"],
    brackets: ["（", "）"],
  },
  "zh-Hant": {
    topics: { fit: "尺寸與版型", fabric: "布料與品質", comfort: "舒適度", look: "外觀與風格", value: "性價比", delivery: "配送", care: "保養與洗滌", occasion: "穿著場合" },
    sizing: { "true to size": "尺寸標準", "runs small": "偏小", "runs large": "偏大", "size up": "建議選大一號", "size down": "建議選小一號" },
    rating: { other: "平均評分 {average} 分（滿分 5 分），共 {count} 則評論。" },
    recommend: "{percent} 的評論者推薦。",
    praised: "{topic}：{percent} 的評論給予好評{keywords}。",
    criticised: "{topic}：{percent} 的評論提出不滿{keywords}。",
    noComplaint: "沒有哪項不滿出現在超過 {percent} 的評論中。",
    quote: ["「", "」"],
    brackets: ["（", "）"],
  },
};
