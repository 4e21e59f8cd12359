import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormField } from "~/components/FormField";
import { accountError, rawField, requireSignedOutCsrf, signedInRedirect, signedOutCsrf, storePath, type AccountAnswer } from "~/lib/accounts.server";
import { adminHeaders, httpError, readAdminForm, readCookie, SESSION_COOKIE } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Accept the invitation · Chorus admin" }, { name: "referrer", content: "no-referrer" }];
export const headers = adminHeaders;

/** The page of a link that does not work (any state but open), with its status. */
function closedLink(state: string): never {
  if (state === "invalid") throw httpError(404, "This invitation link is not valid. Check that the whole link was copied, or ask an owner of the store for a new one.");
  const why = state === "used" ? "was already used" : state === "expired" ? "has expired" : "was revoked or replaced by a newer one";
  throw httpError(410, `This invitation link ${why}. Ask an owner of the store for a new invitation.`);
}

/**
 * An invitation link: the store, the invited e-mail and the way to accept it (confirm when signed in as
 * that user, their password for an existing account, a new password otherwise); 404 / 410 for a link
 * that does not work. Sets the form's double-submit CSRF cookie.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const found = await context.services.team.lookup(params.token);
  if (found.state !== "open") closedLink(found.state);
  const session = await context.services.admin.session(readCookie(request, SESSION_COOKIE));
  const { csrf, headers } = signedOutCsrf(request);
  const { invite, storeName, hasAccount } = found;
  return data({ csrf, storeName, email: invite.email, role: invite.role, hasAccount, signedInAs: session?.email ?? null, signedInAsInvitee: session?.email === invite.email }, { headers });
}

/**
 * Accept: CSRF → 403; a used/expired/revoked link → 410; wrong password → 401, throttled → 429; field
 * errors → 400; success → the membership exists, signed in, to the store.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const form = await readAdminForm(request);
  requireSignedOutCsrf(request, form);
  const current = readCookie(request, SESSION_COOKIE);
  const session = await context.services.admin.session(current);
  try {
    const { storeId, sessionToken } = await context.services.team.accept({
      token: params.token,
      ip: context.clientIp,
      sessionUserId: session?.userId,
      password: rawField(form, "password"),
      newPassword: rawField(form, "newPassword"),
      confirm: rawField(form, "confirm"),
    });
    // The browser's earlier session (the same user's, or another user's it replaces) ends here.
    await context.services.admin.logout(current);
    return signedInRedirect(request, sessionToken, storePath(storeId));
  } catch (error) {
    return accountError(error);
  }
}

export default function AcceptInvite() {
  const { csrf, storeName, email, role, hasAccount, signedInAs, signedInAsInvitee } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const busy = useNavigation().state === "submitting";
  const errors = result?.fieldErrors ?? {};
  return (
    <main id="main" className="admin-plain login">
      <h1>Join {storeName}</h1>
      <p>
        You are invited to the team of <strong>{storeName}</strong> on Chorus as {role === "owner" ? "an owner" : "a member"}, with the e-mail <strong>{email}</strong>.
      </p>
      {result?.error ? (
        <p className="flash flash-error" role="alert">
          {result.error}
        </p>
      ) : null}
      {signedInAs && !signedInAsInvitee ? (
        <p className="notice">
          You are signed in as {signedInAs}. This invitation is for {email}: accepting it signs you in as {email}.
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        {signedInAsInvitee ? null : hasAccount ? (
          <>
            <input type="hidden" name="email" value={email} autoComplete="username" />
            <FormField name="password" label={`Password of ${email}`} type="password" autoComplete="current-password" required error={errors.password} />
          </>
        ) : (
          <>
            <input type="hidden" name="email" value={email} autoComplete="username" />
            <FormField name="newPassword" label="Choose a password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." error={errors.newPassword} />
            <FormField name="confirm" label="Repeat the password" type="password" autoComplete="new-password" required error={errors.confirm} />
          </>
        )}
        <button type="submit" disabled={busy}>
          {hasAccount ? "Accept and sign in" : "Create account and join"}
        </button>
      </Form>
      {hasAccount && !signedInAsInvitee ? (
        <p>
          <Link to="/admin/forgot">Forgot your password?</Link>
        </p>
      ) : null}
    </main>
  );
}
