import { data, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormField } from "~/components/FormField";
import { accountError, rawField, requireSignedOutCsrf, signedOutCsrf, type AccountAnswer } from "~/lib/accounts.server";
import { adminHeaders, clearSessionCookie, httpError, readAdminForm } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Set a new password · Chorus admin" }, { name: "referrer", content: "no-referrer" }];
export const headers = adminHeaders;

const CLOSED = "This link to set a new password does not work: it was used, has expired (links work for one hour) or is incomplete. Ask for a new one.";

/** The new-password form of an open reset link (410 for a used, expired or unknown one). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!(await context.services.passwordResets.isOpen(params.token))) throw httpError(410, CLOSED);
  const { csrf, headers } = signedOutCsrf(request);
  return data({ csrf }, { headers });
}

/**
 * Set the new password: CSRF → 403; closed link → 410; field errors → 400; success → every session of
 * the user ended, to the sign-in form (with a note and the e-mail filled in) to sign in with it.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readAdminForm(request);
  requireSignedOutCsrf(request, form);
  try {
    const { email } = await context.services.passwordResets.reset(params.token, rawField(form, "newPassword"), rawField(form, "confirm"));
    return redirectDocument(`/admin/login?reset=done&email=${encodeURIComponent(email)}`, { headers: { "Set-Cookie": clearSessionCookie(request) } });
  } catch (error) {
    return accountError(error);
  }
}

export default function Reset() {
  const { csrf } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.fieldErrors ?? {};
  return (
    <main id="main" className="admin-plain login">
      <h1>Set a new password</h1>
      <p>Setting it signs you out everywhere; then sign in with the new password.</p>
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error} <Link to="/admin/forgot">Ask for a new link</Link>
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        <FormField name="newPassword" label="New password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={errors.newPassword} />
        <FormField name="confirm" label="Repeat the new password" type="password" autoComplete="new-password" required error={errors.confirm} />
        <button type="submit" disabled={busy}>
          Set password
        </button>
      </Form>
    </main>
  );
}
