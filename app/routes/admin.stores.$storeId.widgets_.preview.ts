/**
 * GET /admin/stores/{storeId}/widgets/preview?lang=: the live preview of the widgets page (framed there).
 * A plain HTML page that loads the real widget script and places every widget of the store's most
 * reviewed product exactly as the snippet of the integration page does, so it shows the store's data
 * with its saved settings (texts of `lang`, colours, hidden widgets). Signed-in members of the store only;
 * framed only by the admin itself.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { escapeUTF8 as esc } from "entities/escape";
import { requireStore } from "~/lib/admin.server";
import { reservationCss, widgetSnippet } from "~/lib/widget-snippet";
import { DEFAULT_WIDGET_SETTINGS, languageTagSchema } from "../../server/contract/widget-settings.ts";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const lang = languageTagSchema.safeParse(new URL(request.url).searchParams.get("lang") ?? "en");
  const top = (await context.services.stores.topProducts(store.storeId, 1))[0];
  const hasLoyalty = await context.services.loyalty.hasProgram(store.storeId);
  const origin = new URL(request.url).origin;
  // Every widget is placed: the store's settings decide which show (a hidden one renders nothing).
  const all = { ...DEFAULT_WIDGET_SETTINGS.widgets, loyalty: hasLoyalty };
  const body = top
    ? widgetSnippet({ origin, storeId: store.storeId, productKey: `${store.platform}-${top.productId}`, shown: all })
    : `<p>This store has no products with reviews yet: the widgets show once it has some.</p>`;
  const html = `<!doctype html>
<html lang="${esc(lang.success ? lang.data : "en")}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>Widget preview · ${esc(store.name)}</title>
<style>
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c1d21; background: #fff; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
${reservationCss(all)}
</style>
</head>
<body>
<main>
<h1>${esc(top?.name ?? store.name)}</h1>
${body}
</main>
</body>
</html>`;
  const mediaOrigin = context.publicOrigin;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        `img-src 'self' data: ${mediaOrigin}`,
        `media-src 'self' ${mediaOrigin}`,
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'self'",
      ].join("; "),
      "X-Frame-Options": "SAMEORIGIN",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "Cache-Control": "no-store",
    },
  });
}
