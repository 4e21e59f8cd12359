import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PLATFORM_LABELS, PLATFORMS } from "../../server/admin/platforms.ts";
import { FormField } from "~/components/FormField";
import { accountError, type AccountAnswer, rawField, requireSignedOutCsrf, signedInRedirect, signedOutCsrf, storePath } from "~/lib/accounts.server";
import { adminHeaders, field, httpError, readAdminForm } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Create your store · Chorus admin" }];
export const headers = adminHeaders;

const CLOSED = "Sign-up is closed on this Chorus. Ask the person who runs it for an account, or sign in.";

/** The sign-up form when `SIGNUP=open` (404 "sign-up is closed" otherwise), with a fresh double-submit CSRF cookie. */
export function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.services.signup.isOpen()) throw httpError(404, CLOSED);
  const { csrf, headers } = signedOutCsrf(request);
  return data({ csrf }, { headers });
}

/**
 * Sign up: closed → 404; unreadable form → 400/413/415; CSRF → 403; field errors → 400 (values kept, not
 * the password); too many from this network → 429 with `Retry-After`; success → signed in, to the new store.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  // Answered before the body is read: the connection closes with the answer.
  if (!context.services.signup.isOpen()) throw httpError(404, CLOSED, { Connection: "close" });
  const form = await readAdminForm(request);
  requireSignedOutCsrf(request, form);
  const values = { email: field(form, "email"), storeName: field(form, "storeName"), platform: field(form, "platform"), shopUrl: field(form, "shopUrl") };
  try {
    const { storeId, sessionToken } = await context.services.signup.signUp({ ...values, password: rawField(form, "password") }, context.clientIp);
    return signedInRedirect(request, sessionToken, storePath(storeId));
  } catch (error) {
    return accountError(error, values);
  }
}

export default function Signup() {
  const { csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string> = result?.fieldErrors ?? {};
  const values: Record<string, string> = result?.values ?? {};
  return (
    <main id="main" className="admin-plain login">
      <h1>Create your store on Chorus</h1>
      <p>Reviews, questions, surveys and a loyalty program for your shop. You will be the store's owner and can invite your team.</p>
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      {Object.keys(errors).length ? (
        <p className="flash flash-error" role="alert">
          Check the fields marked below.
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        <FormField name="email" label="Your e-mail" type="email" autoComplete="username" required defaultValue={values.email} error={errors.email} />
        <FormField name="password" label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={errors.password} />
        <FormField name="storeName" label="Store name" autoComplete="organization" required defaultValue={values.storeName} error={errors.storeName} />
        <FormField name="platform" label="Shop platform" required defaultValue={values.platform || "shopify"} error={errors.platform}>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {PLATFORM_LABELS[p]}
            </option>
          ))}
        </FormField>
        <FormField name="shopUrl" label="Shop address" type="url" inputMode="url" required placeholder="https://shop.example.com" defaultValue={values.shopUrl} error={errors.shopUrl} />
        <button type="submit" disabled={busy}>
          {busy ? "Creating your store…" : "Create store"}
        </button>
      </Form>
      <p>
        Already have an account? <Link to="/admin/login">Sign in</Link>
      </p>
    </main>
  );
}
