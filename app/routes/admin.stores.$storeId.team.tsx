import { data, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { FormField } from "~/components/FormField";
import { accountError, accountOk, type AccountAnswer } from "~/lib/accounts.server";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Team · Chorus admin" }];
export const headers = adminHeaders;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The store's team: members (e-mail, role, joined), open invitations, and whether the viewer is an owner. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const { members, invites } = await context.services.team.team(store.storeId);
  return {
    me: session.userId,
    isOwner: (await context.services.team.roleOf(session.userId, store.storeId)) === "owner",
    members: members.map((m) => ({ userId: m.userId, email: m.email, role: m.role, joined: day(m.joinedMs) })),
    invites: invites.map((i) => ({ inviteId: i.inviteId, email: i.email, role: i.role, sent: day(i.createdMs), expires: day(i.expiresMs) })),
  };
}

/**
 * Intents (owners only, 403 otherwise): `invite` (email, role: mails a single-use link valid 7 days),
 * `revoke` (inviteId), `remove` (userId; never the last owner: 409).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { session, store, form } = await requireStoreAction(request, context, params.storeId);
  const { team } = context.services;
  const intent = field(form, "intent");
  const values = { email: field(form, "email"), role: field(form, "role") };
  try {
    if (intent === "invite") {
      const { email } = await team.invite({ storeId: store.storeId, byUserId: session.userId, form: { email: values.email, role: values.role || undefined }, publicOrigin: context.publicOrigin });
      return accountOk(`Invitation sent to ${email}.`, intent);
    }
    if (intent === "revoke") {
      await team.revokeInvite(store.storeId, session.userId, field(form, "inviteId"));
      return accountOk("Invitation revoked: its link no longer works.", intent);
    }
    if (intent === "remove") {
      const userId = field(form, "userId");
      const email = (await team.team(store.storeId)).members.find((m) => m.userId === userId)?.email;
      await team.removeMember(store.storeId, session.userId, userId);
      // An owner who left has no access to this page any more.
      if (userId === session.userId) return redirectDocument("/admin");
      return accountOk(`${email ?? "The member"} was removed from this store.`, intent);
    }
  } catch (error) {
    return accountError(error, values, intent);
  }
  return data<AccountAnswer>({ error: `Unknown action ${JSON.stringify(intent)}.`, fieldErrors: {}, values: {}, intent }, { status: 400 });
}

export default function Team() {
  const { me, isOwner, members, invites } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as AccountAnswer | undefined;
  const errors = (result?.intent === "invite" && result.fieldErrors) || {};
  const values = (result?.intent === "invite" && !result.ok && result.values) || {};
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Team</h1>
      <Flash result={result && { ok: result.ok, error: result.error }} />

      <h2>Members</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {isOwner ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId}>
                <td>
                  {m.email}
                  {m.userId === me ? <span className="muted"> (you)</span> : null}
                </td>
                <td>{m.role === "owner" ? "Owner" : "Member"}</td>
                <td>{m.joined}</td>
                {isOwner ? (
                  <td>
                    <Form method="post">
                      <CsrfField />
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="userId" value={m.userId} />
                      <button type="submit" className="danger" aria-label={`Remove ${m.email}`}>
                        Remove
                      </button>
                    </Form>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Pending invitations</h2>
      {invites.length === 0 ? (
        <p className="empty">No invitations waiting.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Sent</th>
                <th scope="col">Link expires</th>
                {isOwner ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {invites.map((i) => (
                <tr key={i.inviteId}>
                  <td>{i.email}</td>
                  <td>{i.role === "owner" ? "Owner" : "Member"}</td>
                  <td>{i.sent}</td>
                  <td>{i.expires}</td>
                  {isOwner ? (
                    <td>
                      <Form method="post">
                        <CsrfField />
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="inviteId" value={i.inviteId} />
                        <button type="submit" className="secondary" aria-label={`Revoke the invitation of ${i.email}`}>
                          Revoke
                        </button>
                      </Form>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {isOwner ? (
        <Form method="post" className="stack panel" noValidate>
          <CsrfField />
          <input type="hidden" name="intent" value="invite" />
          <h2>Invite someone</h2>
          <p className="muted">They get an e-mail with a link that works once, for 7 days.</p>
          <FormField name="email" label="E-mail" type="email" required defaultValue={values.email} error={errors.email} key={result?.ok ?? "invite"} />
          <FormField name="role" label="Role" defaultValue={values.role || "member"} error={errors.role}>
            <option value="member">Member: uses the store's admin</option>
            <option value="owner">Owner: also manages the team</option>
          </FormField>
          <button type="submit">Send invitation</button>
        </Form>
      ) : (
        <p className="notice">Only the store's owners can invite or remove people.</p>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
