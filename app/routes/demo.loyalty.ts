/**
 * GET /demo/loyalty: the demo storefront's loyalty page, plain HTML like a merchant's page. A picker of
 * demo shoppers reloads the page with `<chorus-loyalty>` and a storefront platform token signed here,
 * server-side, with the demo store's platform secret: exactly how a storefront platform issues it.
 *
 * Query: `shopper` = demo-pending | demo-enrolled | demo-blocked | demo-<any-lowercase-id> (a new
 * shopper) | absent (anonymous); `position` = above | below (where the legal sentence goes);
 * `policy` = terms | privacy shows the demo program's policy pages (the legal sentence links here).
 *
 * The shopper switch hands out a valid token for any demo shopper, so it answers only on the machine
 * running the demo: `CHORUS_DEMO` = 1 and a loopback client (demoShopperSwitchAllowed); anyone else gets
 * 403 and no token. The demo is not for production.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { DEMO_STORE_ID } from "../../server/demo/demo.ts";
import { DEMO_PARTNER_ID, DEMO_SHOPPERS } from "../../server/loyalty/loyalty.demo.ts";
import { signPlatformToken } from "../../server/loyalty/tokens.ts";
import { demoShopperSwitchAllowed } from "../lib/demo-pages.server.ts";

const SHOPPER_ID = /^demo-[a-z0-9-]{1,40}$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(title: string, body: string, status = 200): Response {
  return new Response(
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; color: #1d1f23; background: #fafafa; }
  header, main, footer { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem; }
  header { border-bottom: 1px solid #d9dbe0; }
  nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
  nav a { display: inline-block; padding: .4rem .75rem; border: 1px solid #3b3fb6; border-radius: 999px; color: #3b3fb6; text-decoration: none; }
  nav a[aria-current="page"] { background: #3b3fb6; color: #fff; }
  a { color: #3b3fb6; }
</style>
</head>
<body>
${body}
</body>
</html>`,
    { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } },
  );
}

function policyPage(which: "terms" | "privacy"): Response {
  const title = which === "terms" ? "Chorus Rewards Terms and Conditions" : "Privacy Policy";
  const text =
    which === "terms"
      ? "Members earn points for orders and reviews as described on the rewards page, and redeem them for coupons. Points have no cash value. We may change these terms; when we do, we ask you to accept the new version."
      : "We use your e-mail address and order history only to run the rewards program. We never sell your data. Ask us at any time to delete your membership.";
  return page(
    `${title} · Chorus Demo Boutique`,
    `<header><p><a href="/demo/loyalty">Back to Chorus Rewards</a></p></header>
<main><h1>${title}</h1><p>${text}</p></main>`,
  );
}

export async function loader({ request, context }: LoaderFunctionArgs): Promise<Response> {
  const url = new URL(request.url);
  const policy = url.searchParams.get("policy");
  if (policy === "terms" || policy === "privacy") return policyPage(policy);

  const requested = url.searchParams.get("shopper");
  const shopper = requested && SHOPPER_ID.test(requested) ? requested : null;
  const position = url.searchParams.get("position") === "above" ? "above" : "below";
  const known = DEMO_SHOPPERS.find((s) => s.platformCustomerId === shopper);

  let tokenTag = "";
  if (shopper && !demoShopperSwitchAllowed(request, context.clientIp)) {
    return page(
      "Chorus Rewards",
      `<main><h1>Chorus Rewards</h1><p>The demo shopper switch signs in as any demo shopper, so it works only on the machine running the demo (a loopback address, with CHORUS_DEMO=1). <a href="/demo/loyalty">Browse the rewards page without signing in</a>.</p></main>`,
      403,
    );
  }
  if (shopper) {
    let secret: string;
    try {
      secret = await context.services.loyalty.platformSecret(DEMO_STORE_ID);
    } catch {
      return page("Chorus Rewards", `<main><h1>Chorus Rewards</h1><p>The demo loyalty program is not set up on this server (start it with CHORUS_DEMO=1 on an empty database).</p></main>`);
    }
    const token = await signPlatformToken(secret, { platformCustomerId: shopper, email: known?.email ?? `${shopper}@demo.chorus.test` });
    tokenTag = `<script type="application/json" id="chorus-customer-token">${JSON.stringify(token).replace(/</g, "\\u003c")}</script>`;
  }

  const choices: { id: string | null; label: string }[] = [{ id: null, label: "Not signed in" }, ...DEMO_SHOPPERS.map((s) => ({ id: s.platformCustomerId as string, label: s.label }))];
  const newShopper = `demo-new-${crypto.randomUUID().slice(0, 8)}`;
  const link = (id: string | null) => `/demo/loyalty?${new URLSearchParams({ ...(id ? { shopper: id } : {}), ...(position === "above" ? { position } : {}) })}`;
  const nav = choices.map((c) => `<li><a href="${escapeHtml(link(c.id))}"${c.id === shopper ? ' aria-current="page"' : ""}>${escapeHtml(c.label)}</a></li>`).join("\n");
  const signedInAs = shopper
    ? `Signed in to the shop as <strong>${escapeHtml(known?.label ?? shopper)}</strong> (platform customer ID <code>${escapeHtml(shopper)}</code>).`
    : "Not signed in to the shop.";

  return page(
    "Chorus Rewards · Chorus Demo Boutique",
    `<header>
<p><a href="/demo">Chorus Demo Boutique</a></p>
<nav id="shoppers" aria-label="Demo shoppers">
<p id="picker-label">Browse the rewards page as:</p>
<ul aria-labelledby="picker-label">
${nav}
<li><a href="${escapeHtml(link(newShopper))}"${shopper && !known ? ' aria-current="page"' : ""}>A new shopper</a></li>
</ul>
</nav>
</header>
<main>
<h1>Chorus Rewards</h1>
<p id="signed-in">${signedInAs}</p>
${tokenTag}
<chorus-loyalty store-id="${DEMO_STORE_ID}" partner-id="${DEMO_PARTNER_ID}" policy-position="${position}" sign-in-url="#shoppers"></chorus-loyalty>
</main>
<script async src="/widgets/chorus.js"></script>`,
  );
}
