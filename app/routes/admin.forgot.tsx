import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormField } from "~/components/FormField";
import { accountError, accountOk, requireSignedOutCsrf, signedOutCsrf, type AccountAnswer } from "~/lib/accounts.server";
import { adminHeaders, field, readAdminForm } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Forgot your password · Chorus admin" }];
export const headers = adminHeaders;

/** The form asking for a reset link, with its double-submit CSRF cookie. */
export function loader({ request }: LoaderFunctionArgs) {
  const { csrf, headers } = signedOutCsrf(request);
  return data({ csrf }, { headers });
}

/**
 * Ask for a reset link: CSRF → 403; not an e-mail → 400; too many from this network → 429; otherwise
 * always the same answer, whether or not the address has an account.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readAdminForm(request);
  requireSignedOutCsrf(request, form);
  const email = field(form, "email");
  try {
    return accountOk(await context.services.passwordResets.request(email, context.clientIp, context.publicOrigin));
  } catch (error) {
    return accountError(error, { email });
  }
}

export default function Forgot() {
  const { csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <main id="main" className="admin-plain login">
      <h1>Forgot your password?</h1>
      {result?.ok ? (
        <p className="flash flash-ok" role="status">
          {result.ok}
        </p>
      ) : (
        <p>Enter the e-mail of your Chorus admin account. We will send it a link to set a new password.</p>
      )}
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        <FormField name="email" label="E-mail" type="email" autoComplete="username" required defaultValue={result?.values.email} error={result?.fieldErrors.email} />
        <button type="submit" disabled={busy}>
          Send the link
        </button>
      </Form>
      <p>
        <Link to="/admin/login">Back to sign-in</Link>
      </p>
    </main>
  );
}
