import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { lifecycleSettingsSchema } from "../../server/contract/loyalty-lifecycle.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, requireStore, requireStoreAction } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import { formValues, parseForm, serviceFailure, type FormFailure } from "~/lib/loyalty-admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty points lifecycle · Chorus admin" }];
export const headers = adminHeaders;

/** Points lifecycle settings (issue 35 items 3-4; docs/loyalty.md "Lifecycle settings"): time zone, expiry, return window, re-qualification. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  const status = await context.services.loyalty.programStatus(store.storeId);
  const settings = status.exists ? await context.services.loyaltyLifecycle.settings(store.storeId) : null;
  return data({ storeId: store.storeId, flash, settings }, { headers });
}

const FIELDS = ["timeZone", "pointsExpiryMonths", "returnWindowDays", "tierRequalification"] as const;
const whole = (name: string) =>
  z
    .string()
    .regex(/^\d{1,3}$/, `${name} must be a whole number`)
    .transform(Number);
/** The form's strings → the settings (an empty expiry is "off"; the checkbox sends "on"). */
const settingsForm = z
  .object({
    timeZone: z.string(),
    pointsExpiryMonths: z.union([z.literal("").transform(() => null), whole("Expiry")]),
    returnWindowDays: whole("The return window"),
    tierRequalification: z.string().transform((v) => v === "on"),
  })
  .pipe(lifecycleSettingsSchema);

/** One intent: save. Invalid fields answer 400 with a message per field; success redirects with a flash. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const values = formValues(form, FIELDS);
  const p = parseForm(settingsForm, "lifecycle", values);
  if (!p.ok) return p.response;
  try {
    await context.services.loyaltyLifecycle.updateSettings(store.storeId, p.data);
  } catch (error) {
    return serviceFailure(error, "lifecycle", values);
  }
  return redirectWithFlash(request, context, `/admin/stores/${store.storeId}/loyalty/lifecycle`, { ok: "Points lifecycle saved." });
}

export default function LoyaltyLifecycle() {
  const { storeId, flash, settings } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as FormFailure | undefined;
  const busy = useNavigation().state !== "idle";
  const errorOf = (name: string) => failure?.errors[name];
  const valueOf = (name: string, fallback: string) => (failure && name in failure.values ? failure.values[name] : fallback);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Points lifecycle</h1>
      <p>
        <Link to={`/admin/stores/${storeId}/loyalty`}>Back to Loyalty</Link>
      </p>
      <Flash result={failure ?? flash} />
      {!settings ? (
        <p className="empty">
          This store has no loyalty program yet. <Link to={`/admin/stores/${storeId}/loyalty/program`}>Set up the loyalty program</Link>
        </p>
      ) : (
        <Form method="post" className="stack panel" noValidate>
          <CsrfField />
          <label htmlFor="lc-timeZone">Time zone (birthdays are awarded on the local day), e.g. Europe/Paris</label>
          <input id="lc-timeZone" name="timeZone" required defaultValue={valueOf("timeZone", settings.timeZone)} {...invalidProps("lc-timeZone", errorOf("timeZone"))} />
          <FieldError id="lc-timeZone" error={errorOf("timeZone")} />
          <label htmlFor="lc-pointsExpiryMonths">Points expire after this many months without activity (6–36; empty: never)</label>
          <input
            id="lc-pointsExpiryMonths"
            name="pointsExpiryMonths"
            type="number"
            min={6}
            max={36}
            step={1}
            defaultValue={valueOf("pointsExpiryMonths", settings.pointsExpiryMonths === null ? "" : String(settings.pointsExpiryMonths))}
            {...invalidProps("lc-pointsExpiryMonths", errorOf("pointsExpiryMonths"))}
          />
          <FieldError id="lc-pointsExpiryMonths" error={errorOf("pointsExpiryMonths")} />
          <p className="muted">Shoppers get a reminder e-mail 30 days before their points expire.</p>
          <label htmlFor="lc-returnWindowDays">Return window: order points stay pending this many days (0–60)</label>
          <input
            id="lc-returnWindowDays"
            name="returnWindowDays"
            type="number"
            min={0}
            max={60}
            step={1}
            required
            defaultValue={valueOf("returnWindowDays", String(settings.returnWindowDays))}
            {...invalidProps("lc-returnWindowDays", errorOf("returnWindowDays"))}
          />
          <FieldError id="lc-returnWindowDays" error={errorOf("returnWindowDays")} />
          <label>
            <input type="checkbox" name="tierRequalification" defaultChecked={failure ? failure.values.tierRequalification === "on" : settings.tierRequalification} /> VIP tier re-qualification: a
            customer whose lifetime points fall (cancelled or refunded orders) loses a tier they no longer reach
          </label>
          <button type="submit" disabled={busy}>
            Save points lifecycle
          </button>
        </Form>
      )}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
