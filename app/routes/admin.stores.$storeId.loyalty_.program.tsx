import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CopyButton } from "~/components/CopyButton";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, isOwner, requireOwnerAction, requireStore } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import { DEFAULT_LEGAL_POLICIES, fieldErrors, legalPoliciesForm } from "~/lib/loyalty-admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty program set-up · Chorus admin" }];
export const headers = adminHeaders;

/** Program set-up (issue 21 item 3): on/off, the platform secret (shown once after generation), first legal policies. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { session, store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  return data(
    {
      storeId: store.storeId,
      isOwner: isOwner(session, store.storeId, "loyalty-program"),
      status: await context.services.loyalty.programStatus(store.storeId),
      flash,
      defaults: DEFAULT_LEGAL_POLICIES,
    },
    { headers },
  );
}

const LEGAL_FIELDS = ["acceptTermsAndJoinProgramButtonText", "policySentenceTemplate", "policySentenceHtml", "termsAndConditionsUrl", "privacyPolicyUrl"] as const;

/**
 * Intents: `turn-on` (creates the program from the legal-policy fields when there is none; the new
 * platform secret goes to the flash, shown once), `turn-off`, `rotate-secret`. Success redirects
 * with a flash; invalid fields answer 400 with a message per field. Every intent is an owner's (403 for a
 * member: the platform secret signs every shopper's loyalty sign-in, docs/admin.md "Who may do what").
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireOwnerAction(request, context, params.storeId, "loyalty-program");
  const { loyalty } = context.services;
  const here = `/admin/stores/${store.storeId}/loyalty/program`;
  const intent = field(form, "intent");
  try {
    switch (intent) {
      case "turn-on": {
        let legal;
        if (!(await loyalty.programStatus(store.storeId)).exists) {
          const values = Object.fromEntries(LEGAL_FIELDS.map((k) => [k, field(form, k)]));
          const parsed = legalPoliciesForm.safeParse(values);
          if (!parsed.success) return data({ errors: fieldErrors(parsed.error), values, error: "Check the highlighted fields." }, { status: 400 });
          legal = parsed.data;
        }
        const on = await loyalty.turnOnProgram(store.storeId, legal);
        return redirectWithFlash(
          request,
          context,
          here,
          on.platformSecret
            ? { ok: "The loyalty program is on. Copy the platform secret below: it is shown only now.", shownOnce: on.platformSecret }
            : { ok: "The loyalty program is on again. Shoppers can sign in and join." },
        );
      }
      case "turn-off":
        await loyalty.turnOffProgram(store.storeId);
        return redirectWithFlash(request, context, here, { ok: "The loyalty program is off. The storefront no longer shows it; rules, members and points are kept." });
      case "rotate-secret": {
        const secret = await loyalty.rotatePlatformSecret(store.storeId);
        return redirectWithFlash(request, context, here, { ok: "A new platform secret was generated. The old one no longer works: update your storefront now.", shownOnce: secret });
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

type ActionResult = { error?: string; errors?: Record<string, string>; values?: Record<string, string> };

export default function LoyaltyProgram() {
  const { storeId, isOwner, status, flash, defaults } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const busy = useNavigation().state !== "idle";
  const errors = result?.errors ?? {};
  const values = result?.values ?? {};
  const input = (name: string, label: string, opts: { hint?: string; textarea?: boolean; required?: boolean; defaultValue?: string; maxLength: number }) => {
    const id = `p-${name}`;
    const props = { id, name, maxLength: opts.maxLength, required: opts.required, defaultValue: values[name] ?? opts.defaultValue ?? "", ...invalidProps(id, errors[name]) };
    return (
      <>
        <label htmlFor={id}>{label}</label>
        {opts.hint ? <span className="muted">{opts.hint}</span> : null}
        {opts.textarea ? <textarea rows={3} {...props} /> : <input {...props} />}
        <FieldError id={id} error={errors[name]} />
      </>
    );
  };
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Loyalty program set-up</h1>
      <Flash result={result?.error ? result : flash} />
      <p>
        <Link to={`/admin/stores/${storeId}/loyalty`}>Earning rules, rewards, VIP tiers and legal policies</Link>
      </p>

      {flash?.shownOnce ? (
        <div className="panel notice" aria-labelledby="secret-title">
          <h2 id="secret-title">Your platform secret</h2>
          <p>
            Your storefront signs each shopper's token (an HS256 JWT with the shopper's customer ID as <code>sub</code>, their e-mail and an expiry) with this secret. It is shown only now: copy it
            into your storefront's settings.
          </p>
          <p>
            <code id="platform-secret" data-testid="platform-secret">
              {flash.shownOnce}
            </code>{" "}
            <CopyButton targetId="platform-secret" label="Copy the secret" />
          </p>
        </div>
      ) : null}

      {!isOwner ? (
        <div className="panel stack">
          <h2>Status</h2>
          <p>
            The loyalty program is <strong data-testid="program-status">{!status.exists ? "not set up" : status.enabled ? "on" : "off"}</strong>.
          </p>
          <p className="notice">Only an owner of this store can turn the loyalty program on or off or generate its platform secret.</p>
        </div>
      ) : !status.exists ? (
        <Form method="post" className="stack panel" noValidate aria-labelledby="turn-on-title">
          <h2 id="turn-on-title">Turn on the loyalty program</h2>
          <p className="muted">
            Shoppers join by accepting your terms. Give the join button's text and the sentence shown under it; each placeholder becomes a link to the page you give below. You add earning rules,
            rewards and VIP tiers next.
          </p>
          <CsrfField />
          <input type="hidden" name="intent" value="turn-on" />
          {input("acceptTermsAndJoinProgramButtonText", "Join button text", { required: true, maxLength: 120, defaultValue: defaults.acceptTermsAndJoinProgramButtonText })}
          {input("policySentenceTemplate", "Policy sentence template", {
            required: true,
            maxLength: 2000,
            textarea: true,
            defaultValue: defaults.policySentenceTemplate,
            hint: "Must contain {termsAndConditions} and {privacyPolicy}.",
          })}
          {input("policySentenceHtml", "Policy sentence HTML (optional)", {
            maxLength: 4000,
            textarea: true,
            hint: "Leave empty to make it from the template. Only links and simple formatting are kept.",
          })}
          {input("termsAndConditionsUrl", "Terms and conditions URL", { required: true, maxLength: 2000, hint: "An https:// address, or a path on your shop such as /pages/rewards-terms." })}
          {input("privacyPolicyUrl", "Privacy policy URL", { required: true, maxLength: 2000, hint: "An https:// address, or a path on your shop such as /pages/privacy." })}
          <button type="submit" disabled={busy}>
            Turn on the loyalty program
          </button>
        </Form>
      ) : (
        <>
          <div className="panel stack">
            <h2>Status</h2>
            <p>
              The loyalty program is <strong data-testid="program-status">{status.enabled ? "on" : "off"}</strong>.{" "}
              {status.enabled ? "Shoppers can sign in, join, earn and redeem points." : "The storefront does not show it; its rules, members and points are kept."}
            </p>
            <Form method="post">
              <CsrfField />
              <input type="hidden" name="intent" value={status.enabled ? "turn-off" : "turn-on"} />
              <button type="submit" className={status.enabled ? "danger" : undefined} disabled={busy}>
                {status.enabled ? "Turn off the loyalty program" : "Turn on the loyalty program"}
              </button>
            </Form>
          </div>
          <div className="panel stack">
            <h2>Platform secret</h2>
            <p>
              {status.platformSecretGeneratedMs ? (
                <>
                  Generated on{" "}
                  <time dateTime={new Date(status.platformSecretGeneratedMs).toISOString()}>{new Date(status.platformSecretGeneratedMs).toISOString().slice(0, 16).replace("T", " ")} UTC</time>.
                </>
              ) : (
                "Set when the program was created outside the admin."
              )}{" "}
              Chorus never shows it again. Generate a new one when it was lost or may have leaked: the old one stops working at once.
            </p>
            <Form method="post">
              <CsrfField />
              <input type="hidden" name="intent" value="rotate-secret" />
              <button type="submit" className="secondary" disabled={busy}>
                Generate a new platform secret
              </button>
            </Form>
          </div>
        </>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
