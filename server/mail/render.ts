/**
 * The one e-mail template: a message in the store's name as HTML (simple, accessible: `lang`, a real
 * heading, one column, inline styles only as mail clients need, contrast ≥ 4.5:1, a button that is a
 * plain link) and the same content as plain text. Every text given is escaped here (callers pass plain
 * text, never HTML); the action URL must be http(s) and is escaped as an attribute.
 */

export type MailContent = {
  /** The store the mail speaks for (shown at the top and in the footer). */
  storeName: string;
  /** Hidden preview line mail clients show after the subject. */
  preheader?: string;
  heading: string;
  /** Plain-text paragraphs (line breaks inside one are kept). */
  paragraphs: string[];
  /** One call to action: a link shown as a button (HTML) and as `label: url` (text). */
  action?: { label: string; url: string };
  /** Small print below (e.g. why the shopper gets this mail, an unsubscribe sentence). */
  footer?: string;
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for HTML content and attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const paragraphHtml = (text: string, style: string) => `<p style="${style}">${escapeHtml(text).replace(/\r?\n/g, "<br>")}</p>`;

/**
 * Render a message. @returns `{ html, text }`: a complete HTML document and its plain-text twin.
 * @throws TypeError when `action.url` is not an absolute http(s) URL (a link in a mail must work anywhere).
 */
export function renderMail(content: MailContent): { html: string; text: string } {
  const { storeName, preheader, heading, paragraphs, action, footer } = content;
  let actionUrl: string | undefined;
  if (action) {
    const url = URL.canParse(action.url) ? new URL(action.url) : null;
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) throw new TypeError(`renderMail: action.url must be an absolute http(s) URL, got "${action.url}"`);
    actionUrl = url.href;
  }
  const font = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
  const p = `${font}margin:0 0 16px;font-size:16px;line-height:1.5;color:#1f2328;`;
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${escapeHtml(heading)}</title>`,
    "</head>",
    '<body style="margin:0;padding:0;background:#f6f8fa;">',
    preheader ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">${escapeHtml(preheader)}</div>` : "",
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f8fa;"><tr><td align="center" style="padding:24px 12px;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;">',
    `<tr><td style="padding:20px 28px 0;${font}font-size:14px;font-weight:600;color:#57606a;">${escapeHtml(storeName)}</td></tr>`,
    '<tr><td style="padding:8px 28px 12px;">',
    `<h1 style="${font}margin:0 0 16px;font-size:22px;line-height:1.3;color:#1f2328;">${escapeHtml(heading)}</h1>`,
    ...paragraphs.map((t) => paragraphHtml(t, p)),
    actionUrl && action
      ? `<p style="margin:24px 0;"><a href="${escapeHtml(actionUrl)}" style="${font}display:inline-block;padding:12px 20px;background:#0b5cad;color:#ffffff;font-size:16px;font-weight:600;text-decoration:underline;border-radius:6px;">${escapeHtml(action.label)}</a></p>` +
        paragraphHtml(`If the button does not work, open this address: ${actionUrl}`, `${font}margin:0 0 16px;font-size:13px;line-height:1.5;color:#57606a;word-break:break-all;`)
      : "",
    "</td></tr>",
    `<tr><td style="padding:16px 28px 20px;border-top:1px solid #d0d7de;${font}font-size:13px;line-height:1.5;color:#57606a;">`,
    footer ? `${escapeHtml(footer).replace(/\r?\n/g, "<br>")}<br>` : "",
    `Sent for ${escapeHtml(storeName)}.`,
    "</td></tr>",
    "</table>",
    "</td></tr></table>",
    "</body>",
    "</html>",
  ]
    .filter(Boolean)
    .join("\n");

  const text = [
    storeName,
    "",
    heading,
    "=".repeat(Math.min(heading.length, 60)),
    "",
    ...paragraphs.flatMap((t) => [t, ""]),
    ...(actionUrl && action ? [`${action.label}: ${actionUrl}`, ""] : []),
    "--",
    ...(footer ? [footer] : []),
    `Sent for ${storeName}.`,
    "",
  ].join("\n");
  return { html, text };
}
