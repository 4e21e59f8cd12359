/**
 * The storefront platform's token of a signed-in shopper (a JWT the shop signs with the store's platform
 * secret, docs/loyalty.md, Tokens): the element's `customer-token` attribute, else the page's
 * `<script type="application/json" id="chorus-customer-token">"<token>"</script>` (a JSON string or
 * `{ "token": "<token>" }`; plain text is taken as the token). '' when the shopper is not signed in.
 */
export function platformTokenOf(attribute: string): string {
  if (attribute) return attribute;
  const tag = document.getElementById("chorus-customer-token");
  if (!tag?.textContent) return "";
  try {
    const value = JSON.parse(tag.textContent) as unknown;
    if (typeof value === "string") return value;
    if (value && typeof value === "object" && typeof (value as { token?: unknown }).token === "string") return (value as { token: string }).token;
  } catch {
    return tag.textContent.trim();
  }
  return "";
}
