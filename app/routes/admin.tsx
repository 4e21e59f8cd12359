import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { adminHeaders } from "~/lib/admin.server";
import adminStyles from "~/styles/admin.css?url";

// An empty icon: no favicon request (and no 404) from admin pages.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: adminStyles },
  { rel: "icon", href: "data:," },
];
export const meta: MetaFunction = () => [{ title: "Chorus admin" }, { name: "robots", content: "noindex" }];
export const headers = adminHeaders;

/** Every /admin page: the admin stylesheet. Store pages add the navigation (admin.stores.$storeId). */
export default function AdminRoot() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main id="main" className="admin-plain">
      <AdminErrorBoundary />
    </main>
  );
}
