import { redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PLATFORM_LABELS, PLATFORMS } from "../../server/admin/platforms.ts";
import { FormField } from "~/components/FormField";
import { accountError, type AccountAnswer, storePath } from "~/lib/accounts.server";
import { adminHeaders, field, httpError, readAdminForm, requireCsrf, requireSession } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "New store · Chorus admin" }];
export const headers = adminHeaders;

const NOT_ALLOWED = "Only an operator of this Chorus can create stores while sign-up is closed.";

/** A new store from the admin: operators always, any signed-in user while sign-up is open (403 otherwise). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireSession(request, context);
  if (!(await context.services.signup.canCreateStore(session.userId))) throw httpError(403, NOT_ALLOWED);
  return { csrf: session.csrfToken, email: session.email, stores: session.stores };
}

/** Create the store (the user becomes its owner) and open it; field errors → 400, throttled → 429. */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireSession(request, context);
  const form = await readAdminForm(request);
  requireCsrf(form, session);
  const values = { storeName: field(form, "storeName"), platform: field(form, "platform"), shopUrl: field(form, "shopUrl") };
  try {
    const { storeId } = await context.services.signup.createStore(session.userId, values, context.clientIp);
    return redirectDocument(storePath(storeId));
  } catch (error) {
    return accountError(error, values);
  }
}

export default function NewStore() {
  const { csrf, email, stores } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const errors: Record<string, string> = result?.fieldErrors ?? {};
  const values: Record<string, string> = result?.values ?? {};
  return (
    <main id="main" className="admin-plain login">
      <h1>New store</h1>
      <p>You ({email}) will be the new store's owner.</p>
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        <FormField name="storeName" label="Store name" required defaultValue={values.storeName} error={errors.storeName} />
        <FormField name="platform" label="Shop platform" required defaultValue={values.platform || "shopify"} error={errors.platform}>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {PLATFORM_LABELS[p]}
            </option>
          ))}
        </FormField>
        <FormField name="shopUrl" label="Shop address" type="url" inputMode="url" required placeholder="https://shop.example.com" defaultValue={values.shopUrl} error={errors.shopUrl} />
        <button type="submit">Create store</button>
      </Form>
      {stores.length ? (
        <p>
          <Link to={`/admin/stores/${encodeURIComponent(stores[0].storeId)}`} reloadDocument>
            Back to {stores[0].name}
          </Link>
        </p>
      ) : null}
    </main>
  );
}
