/**
 * Customer profiles (docs/surveys.md "Customer profiles"): the store's customers whose survey responses answered profile
 * questions, newest first; `?email=` shows one customer's fields, each with the survey response it came from.
 */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ProfileAnswer } from "../../server/contract/surveys.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { adminHeaders, requireStore } from "~/lib/admin.server";
import surveyStyles from "~/styles/admin-surveys.css?url";

export const meta: MetaFunction = () => [{ title: "Customer profiles · Chorus admin" }];
export const headers = adminHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: surveyStyles }];

/** The 100 most recent customers with a profile, and the fields of the customer `?email=` names (if any). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const email = (new URL(request.url).searchParams.get("email") ?? "").trim().toLowerCase();
  const { surveyRewards } = context.services;
  return {
    storeId: store.storeId,
    email,
    customers: await surveyRewards.profiles(store.storeId, 100),
    fields: email ? await surveyRewards.profile(store.storeId, email) : [],
  };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const CHANNEL_LABEL: Record<string, string> = { "on-site": "On site", "post-checkout": "Post-checkout", "post-review": "Post-review", "shareable-link": "Shareable link" };
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** A profile answer readably: a date, a country (with its region code), one value or a list. */
function ProfileValue({ answer }: { answer: ProfileAnswer }) {
  switch (answer.type) {
    case "date-components": {
      const { day, month, year } = answer.value;
      return (
        <time dateTime={`${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`}>
          {day} {MONTHS[month - 1]} {year}
        </time>
      );
    }
    case "location":
      return (
        <>
          {answer.value.countryName ?? regionNames.of(answer.value.countryCode) ?? answer.value.countryCode} ({answer.value.countryCode})
          {answer.value.zoneCode ? `, region ${answer.value.zoneCode}` : ""}
        </>
      );
    case "multi-value":
      return <>{answer.value.join(", ")}</>;
    case "single-value":
      return <>{answer.value}</>;
  }
}

export default function CustomerProfiles() {
  const { storeId, email, customers, fields } = useLoaderData<typeof loader>();
  const base = `/admin/stores/${storeId}/surveys`;
  return (
    <section aria-labelledby="page-title">
      <p>
        <Link to={base}>← Back to surveys</Link>
      </p>
      <h1 id="page-title">{email ? `Customer profile of ${email}` : "Customer profiles"}</h1>
      {email ? (
        fields.length === 0 ? (
          <p className="empty">No profile answers from this address.</p>
        ) : (
          <table>
            <caption>Profile fields and the survey response each came from</caption>
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Answer</th>
                <th scope="col">From the response</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((f) => (
                <tr key={f.profileQuestionId}>
                  <th scope="row">{f.question}</th>
                  <td>
                    <ProfileValue answer={f.answer} />
                  </td>
                  <td>
                    <Link to={`${base}/responses/${f.surveyResponseId}`}>
                      {f.surveyName}, {CHANNEL_LABEL[f.channel] ?? f.channel}, {new Date(f.answeredMs).toISOString().slice(0, 10)}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
      {email ? (
        <p>
          <Link to={`${base}/profiles`}>All customer profiles</Link>
        </p>
      ) : customers.length === 0 ? (
        <p className="empty">No customer has answered a profile question with an e-mail address yet.</p>
      ) : (
        <table>
          <caption>Customers with a profile, most recent answer first</caption>
          <thead>
            <tr>
              <th scope="col">Customer</th>
              <th scope="col">Fields</th>
              <th scope="col">Last answer (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {customers.map((c) => (
              <tr key={c.email}>
                <th scope="row">
                  <Link to={`?${new URLSearchParams({ email: c.email }).toString()}`}>{c.email}</Link>
                </th>
                <td>{c.fields}</td>
                <td>
                  <time dateTime={new Date(c.updatedMs).toISOString()}>{new Date(c.updatedMs).toISOString().slice(0, 10)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export const ErrorBoundary = AdminErrorBoundary;
