import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { requireStore } from "~/lib/admin.server";
import { ADMIN_NAV, navHref } from "~/lib/admin-nav";

/** Store layout: session + membership (404 otherwise), the user's stores for the switcher, the CSRF token. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  return {
    email: session.email,
    csrf: session.csrfToken,
    store: { storeId: store.storeId, name: store.name },
    stores: session.stores,
    canCreateStore: await context.services.signup.canCreateStore(session.userId),
  };
}

export default function StoreLayout() {
  const { email, store, stores, canCreateStore } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const base = `/admin/stores/${store.storeId}`;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-header">
        <div className="brand">
          <a href={base}>Chorus</a> <span className="muted">· {store.name}</span>
        </div>
        {stores.length > 1 ? (
          <Form method="get" action="/admin" className="switcher" reloadDocument>
            <label htmlFor="store-switch">Store</label>
            <select id="store-switch" name="store" defaultValue={store.storeId}>
              {stores.map((s) => (
                <option key={s.storeId} value={s.storeId}>
                  {s.name}
                </option>
              ))}
            </select>
            <button type="submit" className="secondary">
              Switch
            </button>
          </Form>
        ) : null}
        {canCreateStore ? <a href="/admin/stores/new">New store</a> : null}
        <Form method="post" action="/admin/logout" className="signout">
          <CsrfField />
          <span className="muted">{email}</span>{" "}
          <button type="submit" className="secondary">
            Sign out
          </button>
        </Form>
      </header>
      <nav className="admin-nav" aria-label="Admin sections">
        <ul className="nav-groups">
          <li className="nav-home">
            <NavLink to={base} end prefetch="intent">
              Home
            </NavLink>
          </li>
          {ADMIN_NAV.map((group, g) => (
            <li key={group.label} className="nav-group">
              <span className="nav-group-label" id={`nav-group-${g}`}>
                {group.label}
              </span>
              <ul aria-labelledby={`nav-group-${g}`}>
                {group.items.map((item) => (
                  <li key={item.label}>
                    {item.hash ? (
                      <Link to={navHref(base, item)}>{item.label}</Link>
                    ) : (
                      <NavLink to={navHref(base, item)} end={item.end} prefetch="intent">
                        {item.label}
                      </NavLink>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          ))}
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
