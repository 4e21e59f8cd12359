import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireSession } from "~/lib/admin.server";
import { NAV_PAGES } from "~/lib/admin-nav";

export const meta: MetaFunction = () => [{ title: "Chorus admin" }];

/**
 * /admin: go to the first store's home (its checklist and dashboard), or to `?store=<id>&section=<name>` (the store switcher,
 * a plain GET form). A user without stores sees a note.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  const url = new URL(request.url);
  const wanted = url.searchParams.get("store");
  const section = url.searchParams.get("section") ?? "";
  const store = session.stores.find((s) => s.storeId === wanted) ?? session.stores[0];
  const sections = new Set(NAV_PAGES.filter((p) => !p.absolute).map((p) => p.path));
  if (store) return redirect(`/admin/stores/${encodeURIComponent(store.storeId)}/${sections.has(section) ? section : ""}`);
  return { email: session.email, csrf: session.csrfToken, canCreateStore: await context.services.signup.canCreateStore(session.userId) };
}

export default function AdminHome() {
  const { email, csrf, canCreateStore } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="admin-plain">
      <h1>No store yet</h1>
      <p>
        You are signed in as {email}, but no store is linked to your account. Ask an owner of a store to invite you, or the person who runs Chorus to add you to a store (
        <code>npm run users -- add --email {email} --store &lt;store ID&gt;</code>).
      </p>
      {canCreateStore ? (
        <p>
          <Link to="/admin/stores/new" reloadDocument>
            Create a store
          </Link>
        </p>
      ) : null}
      <Form method="post" action="/admin/logout" reloadDocument>
        <input type="hidden" name="csrf" value={csrf} />
        <button type="submit" className="secondary">
          Sign out
        </button>
      </Form>
    </main>
  );
}
