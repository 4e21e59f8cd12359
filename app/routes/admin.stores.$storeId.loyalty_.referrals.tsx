import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { referralSettingsSchema } from "../../server/contract/referrals.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash } from "~/components/Flash";
import { adminHeaders, requireStore, requireStoreAction } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import { formValues, parseForm, serviceFailure, type FormFailure } from "~/lib/loyalty-admin.server";

export const meta: MetaFunction = () => [{ title: "Referral program · Chorus admin" }];
export const headers = adminHeaders;

/** The referral program (issue 35 item 2; docs/loyalty.md "Referrals"): on/off, the friend's discount, the sender's reward; with counts. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  const [settings, stats, target] = await Promise.all([
    context.services.referrals.settings(store.storeId),
    context.services.referrals.stats(store.storeId),
    context.services.platformRewards.target(store.storeId),
  ]);
  return data(
    {
      storeId: store.storeId,
      flash,
      settings,
      stats: { senders: Number(stats.senders), friends: Number(stats.friends), rewards: Number(stats.rewards) },
      platform: target.platform,
      platformProblem: target.platform === null ? target.description : null,
    },
    { headers },
  );
}

const FIELDS = ["enabled", "friendDiscountType", "friendDiscountValue", "friendMinimumOrder", "senderRewardType", "senderRewardValue"] as const;
const amount = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, `${name} must be a number, e.g. 10 or 7.50`)
    .transform(Number);
/** The form's strings → the settings (an empty minimum order is "none"; the checkbox sends "on"). */
const settingsForm = z
  .object({
    enabled: z.string().transform((v) => v === "on"),
    friendDiscountType: z.string(),
    friendDiscountValue: amount("The friend's discount"),
    friendMinimumOrder: z.union([z.literal("").transform(() => null), amount("The minimum order")]),
    senderRewardType: z.string(),
    senderRewardValue: amount("The sender's reward"),
  })
  .pipe(referralSettingsSchema);

/** One intent: save. Invalid fields answer 400 with a message per field; success redirects with a flash. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const values = formValues(form, FIELDS);
  const p = parseForm(settingsForm, "referrals", values);
  if (!p.ok) return p.response;
  try {
    await context.services.referrals.updateSettings(store.storeId, p.data);
  } catch (error) {
    return serviceFailure(error, "referrals", values);
  }
  return redirectWithFlash(request, context, `/admin/stores/${store.storeId}/loyalty/referrals`, { ok: "Referral program saved." });
}

export default function LoyaltyReferrals() {
  const { storeId, flash, settings, stats, platform, platformProblem } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>() as FormFailure | undefined;
  const busy = useNavigation().state !== "idle";
  const errorOf = (name: string) => failure?.errors[name];
  const valueOf = (name: string, fallback: string) => (failure && name in failure.values ? failure.values[name] : fallback);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Referral program</h1>
      <p>
        <Link to={`/admin/stores/${storeId}/loyalty`}>Back to Loyalty</Link>
      </p>
      <Flash result={failure ?? flash} />
      <p>
        A shopper shares their link; a friend who opens it gets a discount code, created on your shop platform
        {platform === "demo" ? " (here the built-in demo platform: its codes do not work at a real checkout)" : ""}. When the friend's first order uses the code, the shopper gets the referral reward.{" "}
        {stats.senders} links shared, {stats.friends} friend discounts, {stats.rewards} rewards given.
      </p>
      {platformProblem ? <p className="notice">Friend discounts cannot be created yet: {platformProblem}</p> : null}
      <Form method="post" className="stack panel" noValidate>
        <CsrfField />
        <label>
          <input type="checkbox" name="enabled" defaultChecked={failure ? failure.values.enabled === "on" : settings.enabled} /> Referral program on (links can be made and used)
        </label>
        <label htmlFor="rf-friendDiscountType">The friend's discount</label>
        <select id="rf-friendDiscountType" name="friendDiscountType" defaultValue={valueOf("friendDiscountType", settings.friendDiscountType)}>
          <option value="percentage-coupon">Percentage off</option>
          <option value="fixed-amount-coupon">Fixed amount off</option>
        </select>
        <label htmlFor="rf-friendDiscountValue">Discount value (percent, or amount in the shop's currency)</label>
        <input
          id="rf-friendDiscountValue"
          name="friendDiscountValue"
          inputMode="decimal"
          required
          defaultValue={valueOf("friendDiscountValue", String(settings.friendDiscountValue))}
          {...invalidProps("rf-friendDiscountValue", errorOf("friendDiscountValue"))}
        />
        <FieldError id="rf-friendDiscountValue" error={errorOf("friendDiscountValue")} />
        <label htmlFor="rf-friendMinimumOrder">Minimum order for the friend's code (empty: none)</label>
        <input
          id="rf-friendMinimumOrder"
          name="friendMinimumOrder"
          inputMode="decimal"
          defaultValue={valueOf("friendMinimumOrder", settings.friendMinimumOrder === null ? "" : String(settings.friendMinimumOrder))}
          {...invalidProps("rf-friendMinimumOrder", errorOf("friendMinimumOrder"))}
        />
        <FieldError id="rf-friendMinimumOrder" error={errorOf("friendMinimumOrder")} />
        <label htmlFor="rf-senderRewardType">The sender's reward</label>
        <select id="rf-senderRewardType" name="senderRewardType" defaultValue={valueOf("senderRewardType", settings.senderRewardType)}>
          <option value="points">Points</option>
          <option value="percentage-coupon">Percentage-off coupon</option>
          <option value="fixed-amount-coupon">Fixed-amount coupon</option>
        </select>
        <label htmlFor="rf-senderRewardValue">Reward value (points, percent, or amount)</label>
        <input
          id="rf-senderRewardValue"
          name="senderRewardValue"
          inputMode="decimal"
          required
          defaultValue={valueOf("senderRewardValue", String(settings.senderRewardValue))}
          {...invalidProps("rf-senderRewardValue", errorOf("senderRewardValue"))}
        />
        <FieldError id="rf-senderRewardValue" error={errorOf("senderRewardValue")} />
        <button type="submit" disabled={busy}>
          Save referral program
        </button>
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
