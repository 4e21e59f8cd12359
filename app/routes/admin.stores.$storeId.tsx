import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { requireStore } from "~/lib/admin.server";

/** The sections of a store's admin, in navigation order. */
export const SECTIONS = [
  { path: "surveys", label: "Surveys" },
  { path: "reviews", label: "Reviews" },
  { path: "orders", label: "Orders" },
  { path: "review-requests", label: "Review requests" },
  { path: "import", label: "Import" },
  { path: "questions", label: "Questions" },
  { path: "ai", label: "AI content" },
  { path: "loyalty", label: "Loyalty" },
  { path: "widgets", label: "Widgets" },
  { path: "integration", label: "Integration" },
  { path: "google-shopping", label: "Google Shopping" },
  { path: "webhooks", label: "Webhooks" },
  { path: "exports", label: "Exports" },
  { path: "settings", label: "Settings" },
  { path: "privacy", label: "Shopper data" },
  { path: "team", label: "Team" },
] as const;

/** Store layout: session + membership (404 otherwise), the user's stores for the switcher, the CSRF token. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  return {
    email: session.email, csrf: session.csrfToken, store: { storeId: store.storeId, name: store.name }, stores: session.stores,
    canCreateStore: await context.services.signup.canCreateStore(session.userId),
  };
}

export default function StoreLayout() {
  const { email, store, stores, canCreateStore } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const base = `/admin/stores/${store.storeId}`;
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="admin-header">
        <div className="brand">
          <a href={base}>Chorus</a> <span className="muted">· {store.name}</span>
        </div>
        {stores.length > 1 ? (
          <Form method="get" action="/admin" className="switcher" reloadDocument>
            <label htmlFor="store-switch">Store</label>
            <select id="store-switch" name="store" defaultValue={store.storeId}>
              {stores.map((s) => (
                <option key={s.storeId} value={s.storeId}>{s.name}</option>
              ))}
            </select>
            <button type="submit" className="secondary">Switch</button>
          </Form>
        ) : null}
        {canCreateStore ? <a href="/admin/stores/new">New store</a> : null}
        <Form method="post" action="/admin/logout" className="signout">
          <CsrfField />
          <span className="muted">{email}</span> <button type="submit" className="secondary">Sign out</button>
        </Form>
      </header>
      <nav className="admin-nav" aria-label="Admin sections">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.path}>
              <NavLink to={`${base}/${s.path}`} prefetch="intent">{s.label}</NavLink>
            </li>
          ))}
          <li>
            <NavLink to="/admin/outbox" prefetch="intent">Outbox</NavLink>
          </li>
        </ul>
      </nav>
      <main id="main" className="admin-main" tabIndex={-1} aria-busy={navigation.state === "loading"}>
        <Outlet />
      </main>
    </>
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="admin-plain">
      <AdminErrorBoundary />
    </main>
  );
}
