import { useRouteLoaderData } from "@remix-run/react";

/** Route ID of the store layout whose loader provides the session's CSRF token. */
export const STORE_LAYOUT_ROUTE = "routes/admin.stores.$storeId";

/** The hidden CSRF token field every admin form carries (checked by requireCsrf; missing → 403). */
export function CsrfField() {
  const data = useRouteLoaderData<{ csrf: string }>(STORE_LAYOUT_ROUTE);
  return <input type="hidden" name="csrf" value={data?.csrf ?? ""} />;
}
