/**
 * Column layouts of the review export files of other review apps (Judge.me, Yotpo, Okendo, Stamped,
 * Loox) and the value rules the importer (app-import.ts) applies to them. The sources of each layout
 * and what is (and is not) documented by the vendor are in docs/import.md.
 *
 * A header is recognised by its normalised name: lower-case letters and digits only, so `Review Title`,
 * `review_title` and `reviewTitle` are the same column. A field may have several candidate columns; the
 * first non-empty one of a row wins (Loox: `nickname`, then `full_name`). The merchant can override any
 * column with a mapping (`--map column=field`, or the admin's mapping step), e.g. for a renamed column.
 */

/** The fields a column can be mapped to. */
export const IMPORT_FIELDS = [
  "reviewId",
  "rating",
  "title",
  "body",
  "date",
  "reviewerName",
  "reviewerEmail",
  "verified",
  "status",
  "published",
  "hidden",
  "reply",
  "replyDate",
  "imageUrls",
  "videoUrls",
  "productId",
  "productHandle",
  "productSku",
  "productTitle",
  "productUrl",
  "countryCode",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** What each field means, for the CLI report, the admin's mapping step and docs/import.md. */
export const FIELD_LABELS: Record<ImportField, string> = {
  reviewId: "the app's review ID (the re-import key)",
  rating: "star rating 1–5",
  title: "review title",
  body: "review text",
  date: "date the review was written",
  reviewerName: "reviewer name (shown)",
  reviewerEmail: "reviewer e-mail (private)",
  verified: "verified buyer flag",
  status: "curation state",
  published: "published flag",
  hidden: "hidden flag",
  reply: "store reply",
  replyDate: "date of the store reply",
  imageUrls: "photo URLs",
  videoUrls: "video URLs",
  productId: "product ID",
  productHandle: "product handle",
  productSku: "product SKU",
  productTitle: "product title",
  productUrl: "product page URL",
  countryCode: "reviewer's country code",
};

export const APP_FORMATS = ["judgeme", "yotpo", "okendo", "stamped", "loox"] as const;
export type AppFormat = (typeof APP_FORMATS)[number];

export const FORMAT_NAMES: Record<AppFormat, string> = { judgeme: "Judge.me", yotpo: "Yotpo", okendo: "Okendo", stamped: "Stamped", loox: "Loox" };

/** Normalised header name: lower-case ASCII letters and digits only. */
export const normaliseHeader = (h: string): string =>
  h
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

type Layout = { fields: Partial<Record<ImportField, string[]>>; ignored: Record<string, string> };

/**
 * Per app: candidate columns (normalised names, in priority order) of each field, and columns known and
 * deliberately not imported, with the reason (reported by the dry run).
 */
export const LAYOUTS: Record<AppFormat, Layout> = {
  judgeme: {
    fields: {
      reviewId: ["id", "reviewid"],
      title: ["title", "reviewtitle"],
      body: ["body"],
      rating: ["rating"],
      date: ["reviewdate", "createdat"],
      reviewerName: ["reviewername"],
      reviewerEmail: ["revieweremail"],
      productId: ["productid"],
      productHandle: ["producthandle"],
      productTitle: ["producttitle"],
      productUrl: ["producturl"],
      reply: ["reply"],
      replyDate: ["replydate"],
      imageUrls: ["pictureurls", "photourls"],
      videoUrls: ["videourls"],
      status: ["curated"],
      published: ["published"],
      hidden: ["hidden"],
      verified: ["verified", "verifiedbuyer"],
    },
    ignored: {
      source: "where Judge.me collected the review; not a proof of purchase",
      ipaddress: "not kept (personal data Chorus does not need)",
      location: "free-text location; not kept",
      metaobjecthandle: "Shopify metaobject reference; not used",
      featured: "Judge.me pinning; not used",
    },
  },
  yotpo: {
    fields: {
      reviewId: ["reviewid", "id"],
      title: ["reviewtitle", "title"],
      body: ["reviewcontent", "content"],
      rating: ["reviewscore", "score", "rating"],
      date: ["date", "reviewdate", "createdat"],
      reviewerName: ["displayname", "username", "name"],
      reviewerEmail: ["email", "useremail"],
      productId: ["productid", "domainkey"],
      productSku: ["sku", "productsku"],
      productTitle: ["producttitle", "productname"],
      productUrl: ["producturl"],
      verified: ["verifiedpurchase", "verifiedbuyer", "reviewertype"],
      status: ["status", "reviewstatus"],
      published: ["published"],
      reply: ["publiccomment", "commentcontent", "comment"],
      replyDate: ["commentcreatedat", "commentdate"],
      imageUrls: ["imageurls", "images", "pictureurls"],
      videoUrls: ["videourls", "videos"],
    },
    ignored: { productimageurl: "the product's own image; not a review photo", reviewsource: "where Yotpo collected the review", sentiment: "Yotpo's score; not used" },
  },
  okendo: {
    fields: {
      reviewId: ["reviewid", "id"],
      reviewerName: ["name", "reviewername", "reviewerdisplayname"],
      body: ["body"],
      title: ["title"],
      productHandle: ["handle"],
      productId: ["productid"],
      productSku: ["sku"],
      productTitle: ["productname", "producttitle"],
      productUrl: ["producturl"],
      rating: ["rating"],
      date: ["datecreated"],
      countryCode: ["countrycode"],
      reviewerEmail: ["email", "revieweremail"],
      imageUrls: ["imageurls"],
      videoUrls: ["videourls"],
      verified: ["isverifiedbuyer", "verifiedbuyer", "reviewerisverified", "verified"],
      status: ["status"],
      reply: ["reply", "replybody"],
      replyDate: ["replydate", "replydatecreated"],
    },
    ignored: { isrecommended: "not imported", variantname: "not imported", tags: "not imported" },
  },
  stamped: {
    fields: {
      reviewId: ["id", "reviewid"],
      productId: ["productid"],
      productHandle: ["producthandle", "handle"],
      productSku: ["productsku", "sku"],
      productTitle: ["producttitle", "productname"],
      productUrl: ["producturl"],
      reviewerName: ["author", "reviewername", "name"],
      reviewerEmail: ["email", "authoremail"],
      rating: ["rating", "reviewrating"],
      title: ["title", "reviewtitle"],
      body: ["body", "reviewmessage", "review"],
      date: ["createdat", "datecreated", "reviewdate", "date"],
      reply: ["reply", "replycontent"],
      replyDate: ["repliedat", "replydate"],
      verified: ["verifiedbuyer", "verified", "reviewverifiedtype"],
      published: ["published", "ispublished"],
      status: ["status", "reviewstate"],
      imageUrls: ["photos", "photourls", "imageurls", "images"],
      videoUrls: ["videos", "videourls"],
      countryCode: ["countrycode"],
    },
    ignored: { location: "free-text location; not kept", productimageurl: "the product's own image; not a review photo", votesup: "not imported", votesdown: "not imported" },
  },
  loox: {
    fields: {
      reviewId: ["id"],
      status: ["status"],
      rating: ["rating"],
      reviewerEmail: ["email"],
      reviewerName: ["nickname", "fullname"],
      body: ["review"],
      date: ["date"],
      productId: ["productid"],
      productHandle: ["handle"],
      productTitle: ["producttitle"],
      imageUrls: ["img", "images"],
      videoUrls: ["video", "videos"],
      reply: ["reply"],
      replyDate: ["repliedat", "replydate"],
      verified: ["verifiedpurchase"],
    },
    ignored: { variant: "not imported", orderid: "not kept", metaobjecthandle: "Shopify metaobject reference; not used" },
  },
};

/** One column of the file and what the importer does with it. */
export type ColumnMapping = { index: number; column: string; field: ImportField | null; note: string };

/**
 * Map a header row: the merchant's `map` (column name → field, or null to ignore it) first, then the
 * app's layout. @returns every column with its field (or null and why not), and per field the column
 * indexes in priority order.
 */
export function mapColumns(format: AppFormat, header: string[], map: Record<string, ImportField | null> = {}) {
  const layout = LAYOUTS[format];
  const explicit = new Map(Object.entries(map).map(([k, v]) => [normaliseHeader(k), v]));
  const columns: ColumnMapping[] = header.map((column, index) => ({ index, column, field: null, note: "" }));
  const byField = new Map<ImportField, number[]>();
  const add = (field: ImportField, index: number) => byField.set(field, [...(byField.get(field) ?? []), index]);
  for (const c of columns) {
    const key = normaliseHeader(c.column);
    if (explicit.has(key)) {
      const field = explicit.get(key)!;
      c.field = field;
      c.note = field ? "mapped by you" : "ignored by your mapping";
      if (field) add(field, c.index);
    }
  }
  const fields = Object.entries(layout.fields) as [ImportField, string[]][];
  for (const [field, candidates] of fields) {
    if ([...explicit.values()].includes(field)) continue; // the merchant chose this field's column
    for (const candidate of candidates) {
      for (const c of columns) {
        if (c.field !== null || c.note || normaliseHeader(c.column) !== candidate) continue;
        c.field = field;
        c.note = `${FORMAT_NAMES[format]} column`;
        add(field, c.index);
      }
    }
  }
  for (const c of columns) if (c.field === null && !c.note) c.note = layout.ignored[normaliseHeader(c.column)] ?? "not a known column: ignored (map it to import it)";
  return { columns, byField };
}

/**
 * Parse a `--map` value: `column=field,column=field`, `column=ignore` to drop a column.
 * @throws Error naming the unknown field or the malformed pair.
 */
export function parseMapping(text: string): Record<string, ImportField | null> {
  const out: Record<string, ImportField | null> = {};
  for (const pair of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = pair.lastIndexOf("=");
    if (eq <= 0) throw new Error(`--map: "${pair}" is not column=field`);
    const column = pair.slice(0, eq).trim();
    const field = pair.slice(eq + 1).trim();
    if (field === "ignore" || field === "") out[column] = null;
    else if ((IMPORT_FIELDS as readonly string[]).includes(field)) out[column] = field as ImportField;
    else throw new Error(`--map: unknown field "${field}" for column "${column}" (fields: ${IMPORT_FIELDS.join(", ")}, or ignore)`);
  }
  return out;
}

/** Curation state of a review in the app, and its Chorus status: hidden and spam are not shown (rejected). */
export type Curation = "published" | "pending" | "hidden" | "spam";
export const CURATION_STATUS: Record<Curation, "published" | "pending" | "rejected"> = { published: "published", pending: "pending", hidden: "rejected", spam: "rejected" };

const STATUS_WORDS: Record<string, Curation> = {
  published: "published",
  publish: "published",
  approved: "published",
  ok: "published",
  active: "published",
  visible: "published",
  live: "published",
  pending: "pending",
  notyet: "pending",
  unmoderated: "pending",
  awaiting: "pending",
  awaitingmoderation: "pending",
  new: "pending",
  inreview: "pending",
  unreviewed: "pending",
  hidden: "hidden",
  hide: "hidden",
  unpublished: "hidden",
  rejected: "hidden",
  archived: "hidden",
  inactive: "hidden",
  deleted: "hidden",
  declined: "hidden",
  spam: "spam",
  markedasspam: "spam",
};
const TRUE_WORDS = new Set(["true", "yes", "y", "1", "t"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", "f"]);

/** A yes/no cell: true, false, or undefined when empty; null when it is neither. */
export function parseFlag(value: string): boolean | undefined | null {
  const v = value.trim().toLowerCase();
  if (v === "") return undefined;
  if (TRUE_WORDS.has(v)) return true;
  if (FALSE_WORDS.has(v)) return false;
  return null;
}

/**
 * The curation of a row from its status word and published/hidden flags (empty cells: published).
 * @returns the curation, or an error message naming the unknown value.
 */
export function parseCuration(status: string, published: string, hidden: string): Curation | { error: string } {
  let curation: Curation = "published";
  const word = normaliseHeader(status);
  if (word) {
    const known = STATUS_WORDS[word] ?? (TRUE_WORDS.has(word) ? "published" : FALSE_WORDS.has(word) ? "hidden" : undefined);
    if (!known) return { error: `unknown curation state ${JSON.stringify(status)} (published, pending, hidden or spam)` };
    curation = known;
  }
  const p = parseFlag(published);
  if (p === null) return { error: `published must be true or false, got ${JSON.stringify(published)}` };
  const h = parseFlag(hidden);
  if (h === null) return { error: `hidden must be true or false, got ${JSON.stringify(hidden)}` };
  if (curation === "published" && (p === false || h === true)) curation = "hidden";
  return curation;
}

const VERIFIED_WORDS = new Set(["true", "yes", "y", "1", "verified", "verifiedbuyer", "buyer", "verifiedpurchase", "purchase"]);
/** Whether the app marked the reviewer a verified buyer (an explicit yes or `verified_buyer`; `email`-verified is not a purchase). */
export const parseVerified = (value: string): boolean => VERIFIED_WORDS.has(normaliseHeader(value));

/**
 * A review date as epoch ms, the apps' formats: ISO 8601 (`2023-05-02`, `2023-05-02T10:12:00Z`,
 * `2023-05-02T10:12:00.000+02:00`), Judge.me's `2023-05-02 10:12:00 UTC`, a space instead of `T`, Unix
 * seconds or ms, and slashed dates `05/02/2023` (day first when the first number is over 12, month first
 * when the second is; otherwise `dateOrder` decides, and without it the date is ambiguous). A time
 * without a zone is UTC. @returns ms, or an error message.
 */
export function parseAppDate(text: string, dateOrder?: "dmy" | "mdy"): number | { error: string } {
  const t = text.trim();
  const bad = { error: `date ${JSON.stringify(text)} is not a date this importer reads (ISO 8601, "YYYY-MM-DD HH:MM:SS UTC", or DD/MM/YYYY with --date-order)` };
  if (t === "") return { error: "date missing" };
  const check = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, msec = 0, offsetMin = 0): number | { error: string } => {
    const ms = Date.UTC(y, mo - 1, d, h, mi, s, msec);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || s > 60) return { error: `date ${JSON.stringify(text)} does not exist` };
    return ms - offsetMin * 60_000;
  };
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (m) {
    let offset = 0;
    const zone = m[8]?.toUpperCase();
    if (zone && zone !== "Z" && zone !== "UTC" && zone !== "GMT") {
      const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
      offset = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
    }
    const msec = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
    return check(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), msec, offset);
  }
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*(?:UTC|Z)?$/i.exec(t);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const order = a > 12 ? "dmy" : b > 12 ? "mdy" : dateOrder;
    if (!order) return { error: `date ${JSON.stringify(text)} is ambiguous (day/month or month/day): pass the date order (--date-order dmy or mdy)` };
    const [d, mo] = order === "dmy" ? [a, b] : [b, a];
    return check(Number(m[3]), mo, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  }
  if (/^\d{10}$/.test(t)) return Number(t) * 1000;
  if (/^\d{13}$/.test(t)) return Number(t);
  return bad;
}

/** The http(s) URLs in a cell (a JSON array, or URLs separated by commas, spaces, `|` or `;`), and the tokens that are not. */
export function splitUrls(cell: string): { urls: string[]; invalid: string[] } {
  const t = cell.trim();
  if (!t) return { urls: [], invalid: [] };
  let tokens: string[];
  if (t.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(t);
      tokens = Array.isArray(parsed) ? parsed.map((x) => (typeof x === "string" ? x : typeof x === "object" && x && "url" in x ? String((x as { url: unknown }).url) : String(x))) : [t];
    } catch {
      tokens = t.split(/[\s,|;]+/);
    }
  } else {
    tokens = t.split(/[\s,|;]+/);
  }
  const urls: string[] = [];
  const invalid: string[] = [];
  for (const token of tokens.map((x) => x.trim()).filter(Boolean)) {
    try {
      const u = new URL(token);
      if (u.protocol === "http:" || u.protocol === "https:") urls.push(u.href);
      else invalid.push(token);
    } catch {
      invalid.push(token);
    }
  }
  return { urls, invalid };
}

/** A product ID as Chorus keeps it: without `gid://shopify/Product/` or a `shopify-` prefix. */
export const normaliseProductId = (id: string): string =>
  id
    .trim()
    .replace(/^gid:\/\/shopify\/Product\//i, "")
    .replace(/^shopify-/i, "");
