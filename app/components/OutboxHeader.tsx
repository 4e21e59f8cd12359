import { Form } from "@remix-run/react";

/** The header of the outbox pages: back to the stores, the signed-in user, sign out. */
export function OutboxHeader({ email, csrf, firstStoreId }: { email: string; csrf: string; firstStoreId: string | null }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="admin-header">
        <div className="brand">
          <a href={firstStoreId ? `/admin/stores/${firstStoreId}` : "/admin"}>Chorus</a> <span className="muted">· Outbox</span>
        </div>
        <Form method="post" action="/admin/logout" className="signout" reloadDocument>
          <input type="hidden" name="csrf" value={csrf} />
          <span className="muted">{email}</span>{" "}
          <button type="submit" className="secondary">
            Sign out
          </button>
        </Form>
      </header>
    </>
  );
}
