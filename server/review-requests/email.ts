/**
 * The review-request e-mail (issue #22 item 2; docs/review-requests.md): the store's subject and body
 * template filled with plain-text values, then one block per product (its picture, its name, a "Write a
 * review" link and a one-click star row of five links carrying the rating), and the unsubscribe link in
 * the footer and in the `List-Unsubscribe` / `List-Unsubscribe-Post` headers (RFC 8058). Built in the mail
 * module's conventions (server/mail/render.ts: one column, inline styles, every text escaped here, a plain-text twin).
 */
import { escapeHtml } from "../mail/render.ts";
import { fillTemplate, templateFor, UNKNOWN_CUSTOMER_NAME, type ReviewRequestSettings } from "./settings.ts";

export type EmailProduct = { name: string; imageUrl: string | null; reviewUrl: string };

export type ReviewRequestEmailInput = {
  settings: ReviewRequestSettings;
  storeName: string;
  orderId: string;
  /** The order's number as the shop shows it (Shopify's order name, e.g. "#1001"), when known. */
  orderNumber?: string | null;
  customerName: string | null;
  locale: string | null;
  /** "reminder" prefixes the subject with "Reminder: ". */
  step: "request" | "reminder";
  products: EmailProduct[];
  unsubscribeUrl: string;
  /** The origin that relative product image paths are resolved against. */
  origin: string;
};

export type ReviewRequestEmail = { subject: string; html: string; text: string; headers: Record<string, string>; language: string };

const STARS = [1, 2, 3, 4, 5] as const;

/** `url` with `?rating=n` (the star links). */
export const withRating = (url: string, rating: number) => `${url}?rating=${rating}`;

/** An absolute http(s) image URL for a product picture, or null (relative paths resolve against `origin`). */
function imageSrc(imageUrl: string | null, origin: string): string | null {
  if (!imageUrl) return null;
  try {
    const url = new URL(imageUrl, origin);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Build the message. Every value is plain text and escaped here. */
export function buildReviewRequestEmail(input: ReviewRequestEmailInput): ReviewRequestEmail {
  const { language, template } = templateFor(input.settings, input.locale);
  const values = { customerName: input.customerName?.trim() || UNKNOWN_CUSTOMER_NAME, storeName: input.storeName, orderId: input.orderId, orderNumber: input.orderNumber || input.orderId };
  const baseSubject = fillTemplate(template.subject, values).replace(/[\r\n]+/g, " ");
  const subject = input.step === "reminder" ? `Reminder: ${baseSubject}` : baseSubject;
  const paragraphs = fillTemplate(template.body, values)
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const footer = `You get this e-mail because you ordered from ${input.storeName}. If you do not want review requests from ${input.storeName} any more, unsubscribe:`;

  const font = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
  const p = `${font}margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2328;`;
  const productHtml = (product: EmailProduct) => {
    const src = imageSrc(product.imageUrl, input.origin);
    const name = escapeHtml(product.name);
    const stars = STARS.map(
      (n) =>
        `<a href="${escapeHtml(withRating(product.reviewUrl, n))}" title="${n} out of 5 stars" aria-label="Rate ${name} ${n} out of 5 stars" style="${font}display:inline-block;padding:4px 6px;font-size:26px;line-height:1;color:#8a5a00;text-decoration:none;">&#9733;<span style="font-size:12px;color:#57606a;">${n}</span></a>`,
    ).join("");
    return [
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:0 0 20px;border:1px solid #d0d7de;border-radius:6px;"><tr>',
      src ? `<td width="96" valign="top" style="padding:12px;"><img src="${escapeHtml(src)}" width="80" alt="${name}" style="display:block;width:80px;height:auto;border-radius:4px;"></td>` : "",
      `<td valign="top" style="padding:12px;">`,
      `<p style="${font}margin:0 0 8px;font-size:16px;font-weight:600;color:#1f2328;">${name}</p>`,
      `<p style="${font}margin:0 0 4px;font-size:14px;color:#57606a;">Rate it with one click:</p>`,
      `<p style="margin:0 0 8px;">${stars}</p>`,
      `<p style="${font}margin:0;font-size:15px;"><a href="${escapeHtml(product.reviewUrl)}" style="color:#0b5cad;text-decoration:underline;">Write a review of ${name}</a></p>`,
      "</td></tr></table>",
    ].join("");
  };

  const html = [
    "<!DOCTYPE html>",
    `<html lang="${escapeHtml(language)}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${escapeHtml(subject)}</title>`,
    "</head>",
    '<body style="margin:0;padding:0;background:#f6f8fa;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f8fa;"><tr><td align="center" style="padding:24px 12px;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;">',
    `<tr><td style="padding:20px 28px 0;${font}font-size:14px;font-weight:600;color:#57606a;">${escapeHtml(input.storeName)}</td></tr>`,
    '<tr><td style="padding:8px 28px 12px;">',
    `<h1 style="${font}margin:0 0 16px;font-size:22px;line-height:1.3;color:#1f2328;">${escapeHtml(baseSubject)}</h1>`,
    ...paragraphs.map((t) => `<p style="${p}">${escapeHtml(t).replace(/\r?\n/g, "<br>")}</p>`),
    ...input.products.map(productHtml),
    "</td></tr>",
    `<tr><td style="padding:16px 28px 20px;border-top:1px solid #d0d7de;${font}font-size:13px;line-height:1.5;color:#57606a;">`,
    `${escapeHtml(footer)} <a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#0b5cad;text-decoration:underline;">Unsubscribe from review requests</a>`,
    "</td></tr>",
    "</table>",
    "</td></tr></table>",
    "</body>",
    "</html>",
  ].join("\n");

  const text = [
    input.storeName,
    "",
    baseSubject,
    "=".repeat(Math.min(baseSubject.length, 60)),
    "",
    ...paragraphs.flatMap((t) => [t, ""]),
    ...input.products.flatMap((product) => [product.name, `  Write a review: ${product.reviewUrl}`, ...STARS.map((n) => `  ${n} of 5 stars: ${withRating(product.reviewUrl, n)}`), ""]),
    "--",
    footer,
    input.unsubscribeUrl,
    "",
  ].join("\n");

  return {
    subject,
    html,
    text,
    language,
    // RFC 8058: mail apps POST to the header's URL (a plain endpoint); the footer link opens the confirm page.
    headers: { "List-Unsubscribe": `<${input.unsubscribeUrl}/one-click>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
