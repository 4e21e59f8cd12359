import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { FieldError, invalidProps } from "~/components/FieldError";
import { Flash, LiveFlash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";
import { readFlash, redirectWithFlash } from "~/lib/flash.server";
import {
  EARNING_RULE_TYPES,
  REDEMPTION_RULE_TYPES,
  earningRuleEdit,
  earningRuleInput,
  fieldErrors,
  formValues,
  invalid,
  legalPoliciesForm,
  parseForm,
  redemptionRuleInput,
  serviceFailure,
  vipTierInput,
  type FormFailure,
} from "~/lib/loyalty-admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty · Chorus admin" }];
export const headers = adminHeaders;

/** Loyalty settings (issue 7 item 5, issue 21 item 3): earning rules, redemption rules, VIP tiers (add, edit, remove) and legal policies. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = await requireStore(request, context, params.storeId);
  const { flash, headers } = await readFlash(request, context);
  const status = await context.services.loyalty.programStatus(store.storeId);
  if (!status.exists) return data({ storeId: store.storeId, flash, enabled: false, program: null, earningTypes: EARNING_RULE_TYPES, redemptionTypes: REDEMPTION_RULE_TYPES }, { headers });
  const p = await context.services.loyalty.adminProgram(store.storeId);
  // Why rewards cannot be redeemed yet, said before a redemption rule is turned on (docs/loyalty.md "Rewards at checkout").
  const target = await context.services.platformRewards.target(store.storeId);
  return data(
    {
      storeId: store.storeId,
      flash,
      rewardPlatform: target.platform === null ? { platform: null, description: target.description } : { platform: target.platform, description: null },
      enabled: status.enabled,
      earningTypes: EARNING_RULE_TYPES,
      redemptionTypes: REDEMPTION_RULE_TYPES,
      program: {
        earningRules: p.earningRules.map((r) => ({ id: r.earning_rule_id, type: r.type, name: r.name, points: r.points, perUnit: r.points_per_currency_unit, enabled: r.enabled === 1 })),
        redemptionRules: p.redemptionRules.map((r) => ({
          id: r.redemption_rule_id,
          type: r.type,
          name: r.name,
          pointsCost: r.points_cost,
          reward: r.reward_description,
          value: r.reward_value,
          enabled: r.enabled === 1,
        })),
        vipTiers: p.vipTiers.map((t) => ({
          id: t.vip_tier_id,
          name: t.name,
          threshold: t.points_threshold,
          multiplier: t.points_multiplier,
          perks: t.perks_json ? (JSON.parse(t.perks_json) as string[]) : [],
        })),
        legal: p.legalPolicies,
      },
    },
    { headers },
  );
}

const EARNING_FIELDS = ["type", "name", "points", "pointsPerCurrencyUnit", "enabled"] as const;
const REDEMPTION_FIELDS = ["type", "name", "pointsCost", "rewardDescription", "rewardValue", "enabled"] as const;
const TIER_FIELDS = ["name", "pointsThreshold", "pointsMultiplier", "perks"] as const;
const LEGAL_FIELDS = ["buttonText", "policyHtml", "policyTemplate", "termsUrl", "privacyUrl"] as const;
/** The legal policies form's field names → the names of `legalPoliciesForm` (and the API). */
const LEGAL_NAMES = {
  buttonText: "acceptTermsAndJoinProgramButtonText",
  policyHtml: "policySentenceHtml",
  policyTemplate: "policySentenceTemplate",
  termsUrl: "termsAndConditionsUrl",
  privacyUrl: "privacyPolicyUrl",
} as const;

/**
 * Intents: `add-` / `remove-` / (edit) `earning-rule`, `redemption-rule`, `vip-tier`, and `legal`. Success redirects
 * here with a flash; invalid fields answer 400 with a message per field; another store's rule or tier answers 404
 * and is not changed; a VIP tier threshold already taken or an earning rule type already used answers 409.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { loyalty } = context.services;
  const storeId = store.storeId;
  const done = (ok: string) => redirectWithFlash(request, context, `/admin/stores/${storeId}/loyalty`, { ok });
  const intent = field(form, "intent");
  const id = field(form, "id");
  const rowForm = (prefix: string) => (id ? `${prefix}-${id}` : `${prefix}-new`);
  let formId = "page";
  let values: Record<string, string> = {};
  try {
    switch (intent) {
      case "add-earning-rule": {
        formId = rowForm("er");
        values = formValues(form, EARNING_FIELDS);
        const p = parseForm(earningRuleInput, formId, values);
        if (!p.ok) return p.response;
        await loyalty.addEarningRule(storeId, p.data);
        return done(`Earning rule "${p.data.name}" added.`);
      }
      case "earning-rule": {
        formId = rowForm("er");
        values = formValues(form, EARNING_FIELDS);
        const p = parseForm(earningRuleEdit, formId, values);
        if (!p.ok) return p.response;
        await loyalty.editEarningRule(storeId, id, p.data);
        return done("Earning rule saved.");
      }
      case "remove-earning-rule":
        await loyalty.removeEarningRule(storeId, id);
        return done("Earning rule removed. Points already earned stay.");
      case "add-redemption-rule":
      case "redemption-rule": {
        formId = rowForm("rr");
        values = formValues(form, REDEMPTION_FIELDS);
        const p = parseForm(redemptionRuleInput, formId, values);
        if (!p.ok) return p.response;
        if (intent === "redemption-rule") {
          await loyalty.editRedemptionRule(storeId, id, p.data);
          return done("Redemption rule saved.");
        }
        await loyalty.addRedemptionRule(storeId, p.data);
        return done(`Redemption rule "${p.data.name}" added.`);
      }
      case "remove-redemption-rule":
        await loyalty.removeRedemptionRule(storeId, id);
        return done("Redemption rule removed. Coupons already issued stay valid.");
      case "add-vip-tier":
      case "vip-tier": {
        formId = rowForm("vt");
        values = formValues(form, TIER_FIELDS);
        const p = parseForm(vipTierInput, formId, values);
        if (!p.ok) return p.response;
        if (intent === "vip-tier") await loyalty.editVipTier(storeId, id, p.data);
        else await loyalty.addVipTier(storeId, p.data);
        return done(intent === "vip-tier" ? "VIP tier saved. Members' tiers were recalculated." : `VIP tier "${p.data.name}" added. Members' tiers were recalculated.`);
      }
      case "remove-vip-tier":
        await loyalty.removeVipTier(storeId, id);
        return done("VIP tier removed. Members' tiers were recalculated.");
      case "legal": {
        formId = "legal";
        values = { ...formValues(form, LEGAL_FIELDS), policyHtml: String(form.get("policyHtml") ?? "") };
        const checked = legalPoliciesForm.safeParse(Object.fromEntries(LEGAL_FIELDS.map((f) => [LEGAL_NAMES[f], values[f]])));
        if (!checked.success) {
          const byName = fieldErrors(checked.error);
          return invalid(formId, Object.fromEntries(LEGAL_FIELDS.filter((f) => byName[LEGAL_NAMES[f]]).map((f) => [f, byName[LEGAL_NAMES[f]]])), values);
        }
        const before = (await loyalty.adminLegalPolicies(storeId)).version;
        const after = await loyalty.editLegalPolicies(storeId, {
          acceptTermsAndJoinProgramButtonText: values.buttonText,
          policySentenceHtml: String(form.get("policyHtml") ?? ""),
          policySentenceTemplate: values.policyTemplate,
          privacyPolicyUrl: values.privacyUrl,
          termsAndConditionsUrl: values.termsUrl,
        });
        return done(
          after.version === before ? "Nothing changed: the legal policies keep their version." : `Legal policies saved as version ${after.version}. Shoppers accept this version when they join.`,
        );
      }
      default:
        return data<FormFailure>({ formId, error: `Unknown action ${JSON.stringify(intent)}.`, errors: {}, values }, { status: 400 });
    }
  } catch (error) {
    return serviceFailure(error, formId, values);
  }
}

const TYPE_LABELS: Record<string, string> = {
  "sign-up": "Sign-up",
  "points-per-spend": "Points per currency unit spent",
  review: "Review",
  "review-with-media": "Review with photos or video",
  birthday: "Birthday",
  "fixed-amount-coupon": "Fixed-amount coupon",
  "percentage-coupon": "Percentage coupon",
  "free-shipping": "Free shipping",
};

/**
 * The loyalty page. Each "Add" form is keyed by the IDs of the rules or tiers it adds to, so after a successful
 * add (a redirect here with a new row) it mounts afresh with empty fields (no duplicate rule by a second click);
 * a failed add keeps the typed values. Success notes go to a status region that is always in the page.
 */
export default function Loyalty() {
  const loaded = useLoaderData<typeof loader>();
  const { storeId, program, flash, enabled, earningTypes, redemptionTypes } = loaded;
  const rewardPlatform = "rewardPlatform" in loaded ? loaded.rewardPlatform : null;
  const failure = useActionData<typeof action>() as FormFailure | undefined;
  const busy = useNavigation().state !== "idle";
  const setupUrl = `/admin/stores/${storeId}/loyalty/program`;
  if (!program) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title">Loyalty</h1>
        <Flash result={failure ?? flash} />
        <p className="empty">
          This store has no loyalty program yet. <Link to={setupUrl}>Set up the loyalty program</Link>
        </p>
      </section>
    );
  }

  /** Error and values of `formId` when its last submission failed. */
  const errorOf = (formId: string, name: string) => (failure?.formId === formId ? failure.errors[name] : undefined);
  const valueOf = (formId: string, name: string, fallback: string | number) => (failure?.formId === formId && name in failure.values ? failure.values[name] : String(fallback));
  /** Props of an input of the row/add form `formId`: associated by `form`, with an ID, label, error state. */
  const cell = (formId: string, name: string, label: string) => ({ form: formId, id: `${formId}-${name}`, name, "aria-label": label, ...invalidProps(`${formId}-${name}`, errorOf(formId, name)) });
  const err = (formId: string, name: string) => <FieldError id={`${formId}-${name}`} error={errorOf(formId, name)} />;
  const usedEarningTypes = new Set(program.earningRules.map((r) => r.type));
  const freeEarningTypes = earningTypes.filter((t) => !usedEarningTypes.has(t));
  const legal = program.legal;
  const rowForm = (formId: string, intent: string, id: string, label: string): ReactNode => (
    <Form method="post" id={formId}>
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="secondary" disabled={busy} aria-label={`Save ${label}`}>
        Save
      </button>
    </Form>
  );
  const removeForm = (intent: string, id: string, label: string): ReactNode => (
    <Form method="post">
      <CsrfField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className="danger" disabled={busy} aria-label={`Remove ${label}`}>
        Remove
      </button>
    </Form>
  );
  const addFailure = (formId: string) =>
    failure?.formId === formId ? (
      <p className="flash flash-error" role="alert">
        {failure.error}
      </p>
    ) : null;
  const pageFailure = failure && !failure.formId.endsWith("-new") ? failure : null;

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Loyalty</h1>
      <LiveFlash result={pageFailure ?? (failure ? null : flash)} />
      {!enabled ? (
        <p className="notice">
          The loyalty program is off: shoppers do not see it. <Link to={setupUrl}>Turn it on</Link>
        </p>
      ) : null}
      <p>
        <Link to={setupUrl}>Program set-up: on or off, platform secret</Link>
        {" · "}
        <Link to={`/admin/stores/${storeId}/loyalty/customers`}>Customers: status, points, block, adjust points</Link>
        {" · "}
        <Link to={`/admin/stores/${storeId}/loyalty/lifecycle`}>Points lifecycle: time zone, expiry, return window, tiers</Link>
        {" · "}
        <Link to={`/admin/stores/${storeId}/loyalty/referrals`}>Referral program: friend discount, sender reward</Link>
      </p>

      <h2 id="earning">Earning rules</h2>
      {program.earningRules.length === 0 ? (
        <p className="empty">No earning rules yet: add one below.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="earning">
            <caption className="visually-hidden">Earning rules: how customers earn points</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Points</th>
                <th scope="col">Points per currency unit</th>
                <th scope="col">Enabled</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {program.earningRules.map((r) => {
                const f = `er-${r.id}`;
                return (
                  <tr key={r.id}>
                    <th scope="row">
                      {TYPE_LABELS[r.type] ?? r.type}
                      <input type="hidden" form={f} name="type" value={r.type} />
                    </th>
                    <td>
                      <input {...cell(f, "name", `Name of ${r.name}`)} required maxLength={120} defaultValue={valueOf(f, "name", r.name)} />
                      {err(f, "name")}
                    </td>
                    <td>
                      <input {...cell(f, "points", `Points for ${r.name}`)} type="number" min={0} step={1} required defaultValue={valueOf(f, "points", r.points)} />
                      {err(f, "points")}
                    </td>
                    <td>
                      {r.type === "points-per-spend" ? (
                        <>
                          <input
                            {...cell(f, "pointsPerCurrencyUnit", `Points per currency unit for ${r.name}`)}
                            type="number"
                            min={0}
                            step="any"
                            required
                            defaultValue={valueOf(f, "pointsPerCurrencyUnit", r.perUnit ?? 0)}
                          />
                          {err(f, "pointsPerCurrencyUnit")}
                        </>
                      ) : (
                        <span className="muted">–</span>
                      )}
                    </td>
                    <td>
                      <input form={f} type="checkbox" name="enabled" defaultChecked={r.enabled} aria-label={`${r.name} enabled`} />
                    </td>
                    <td className="actions">
                      {rowForm(f, "earning-rule", r.id, r.name)} {removeForm("remove-earning-rule", r.id, r.name)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {freeEarningTypes.length ? (
        <Form key={`add-earning-${program.earningRules.map((r) => r.id).join()}`} method="post" className="stack panel" noValidate aria-labelledby="add-earning">
          <h3 id="add-earning">Add an earning rule</h3>
          {addFailure("er-new")}
          <CsrfField />
          <input type="hidden" name="intent" value="add-earning-rule" />
          <label htmlFor="er-new-type">Type</label>
          <select id="er-new-type" name="type" defaultValue={valueOf("er-new", "type", freeEarningTypes[0])} {...invalidProps("er-new-type", errorOf("er-new", "type"))}>
            {freeEarningTypes.map((t) => (
              <option key={t} value={t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          {err("er-new", "type")}
          <label htmlFor="er-new-name">Name shown to shoppers</label>
          <input id="er-new-name" name="name" maxLength={120} required defaultValue={valueOf("er-new", "name", "")} {...invalidProps("er-new-name", errorOf("er-new", "name"))} />
          {err("er-new", "name")}
          <label htmlFor="er-new-points">Points</label>
          <input
            id="er-new-points"
            name="points"
            type="number"
            min={0}
            step={1}
            required
            defaultValue={valueOf("er-new", "points", "")}
            {...invalidProps("er-new-points", errorOf("er-new", "points"))}
          />
          {err("er-new", "points")}
          <label htmlFor="er-new-pointsPerCurrencyUnit">Points per currency unit spent (points-per-spend rules only)</label>
          <input
            id="er-new-pointsPerCurrencyUnit"
            name="pointsPerCurrencyUnit"
            type="number"
            min={0}
            step="any"
            defaultValue={valueOf("er-new", "pointsPerCurrencyUnit", "")}
            {...invalidProps("er-new-pointsPerCurrencyUnit", errorOf("er-new", "pointsPerCurrencyUnit"))}
          />
          {err("er-new", "pointsPerCurrencyUnit")}
          <label className="choice">
            <input type="checkbox" name="enabled" defaultChecked /> Enabled
          </label>
          <button type="submit" disabled={busy}>
            Add earning rule
          </button>
        </Form>
      ) : null}

      <h2 id="redemption">Redemption rules</h2>
      {rewardPlatform?.platform === null ? (
        <p className="notice" data-testid="reward-platform-missing">
          Shoppers cannot redeem rewards yet: {rewardPlatform.description.replace(/^Rewards cannot be created right now: /, "").replace(/ Please try again later\.$/, "")} Each reward is created at the
          shop before its code is shown, so connect it on the <Link to={`/admin/stores/${storeId}/platform`}>Shop platform</Link> page first.
        </p>
      ) : rewardPlatform?.platform === "demo" ? (
        <p className="notice" data-testid="reward-platform-demo">
          Rewards use the built-in <strong>demo platform</strong>: their codes are listed on the <Link to={`/admin/stores/${storeId}/platform`}>Shop platform</Link> page and work at no real checkout.
        </p>
      ) : null}
      {program.redemptionRules.length === 0 ? (
        <p className="empty">No redemption rules yet: add one below.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="redemption">
            <caption className="visually-hidden">Redemption rules: rewards customers buy with points</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Points cost</th>
                <th scope="col">Reward description</th>
                <th scope="col">Reward value</th>
                <th scope="col">Enabled</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {program.redemptionRules.map((r) => {
                const f = `rr-${r.id}`;
                return (
                  <tr key={r.id}>
                    <th scope="row">
                      {TYPE_LABELS[r.type] ?? r.type}
                      <input type="hidden" form={f} name="type" value={r.type} />
                    </th>
                    <td>
                      <input {...cell(f, "name", `Name of ${r.name}`)} required maxLength={120} defaultValue={valueOf(f, "name", r.name)} />
                      {err(f, "name")}
                    </td>
                    <td>
                      <input {...cell(f, "pointsCost", `Points cost of ${r.name}`)} type="number" min={1} step={1} required defaultValue={valueOf(f, "pointsCost", r.pointsCost)} />
                      {err(f, "pointsCost")}
                    </td>
                    <td>
                      <input {...cell(f, "rewardDescription", `Reward description of ${r.name}`)} required maxLength={200} defaultValue={valueOf(f, "rewardDescription", r.reward)} />
                      {err(f, "rewardDescription")}
                    </td>
                    <td>
                      {r.type === "free-shipping" ? (
                        <>
                          <input type="hidden" form={f} name="rewardValue" value="0" />
                          <span className="muted">–</span>
                        </>
                      ) : (
                        <>
                          <input {...cell(f, "rewardValue", `Reward value of ${r.name}`)} type="number" min={0} step="any" required defaultValue={valueOf(f, "rewardValue", r.value)} />
                          {err(f, "rewardValue")}
                        </>
                      )}
                    </td>
                    <td>
                      <input form={f} type="checkbox" name="enabled" defaultChecked={r.enabled} aria-label={`${r.name} enabled`} />
                    </td>
                    <td className="actions">
                      {rowForm(f, "redemption-rule", r.id, r.name)} {removeForm("remove-redemption-rule", r.id, r.name)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Form key={`add-redemption-${program.redemptionRules.map((r) => r.id).join()}`} method="post" className="stack panel" noValidate aria-labelledby="add-redemption">
        <h3 id="add-redemption">Add a redemption rule</h3>
        {addFailure("rr-new")}
        <CsrfField />
        <input type="hidden" name="intent" value="add-redemption-rule" />
        <label htmlFor="rr-new-type">Type</label>
        <select id="rr-new-type" name="type" defaultValue={valueOf("rr-new", "type", redemptionTypes[0])} {...invalidProps("rr-new-type", errorOf("rr-new", "type"))}>
          {redemptionTypes.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
        {err("rr-new", "type")}
        <label htmlFor="rr-new-name">Name shown to shoppers</label>
        <input id="rr-new-name" name="name" maxLength={120} required defaultValue={valueOf("rr-new", "name", "")} {...invalidProps("rr-new-name", errorOf("rr-new", "name"))} />
        {err("rr-new", "name")}
        <label htmlFor="rr-new-pointsCost">Points cost</label>
        <input
          id="rr-new-pointsCost"
          name="pointsCost"
          type="number"
          min={1}
          step={1}
          required
          defaultValue={valueOf("rr-new", "pointsCost", "")}
          {...invalidProps("rr-new-pointsCost", errorOf("rr-new", "pointsCost"))}
        />
        {err("rr-new", "pointsCost")}
        <label htmlFor="rr-new-rewardDescription">Reward description (on the coupon)</label>
        <input
          id="rr-new-rewardDescription"
          name="rewardDescription"
          maxLength={200}
          required
          defaultValue={valueOf("rr-new", "rewardDescription", "")}
          {...invalidProps("rr-new-rewardDescription", errorOf("rr-new", "rewardDescription"))}
        />
        {err("rr-new", "rewardDescription")}
        <label htmlFor="rr-new-rewardValue">Reward value (currency units, or percent for a percentage coupon; free shipping: leave empty)</label>
        <input
          id="rr-new-rewardValue"
          name="rewardValue"
          type="number"
          min={0}
          step="any"
          defaultValue={valueOf("rr-new", "rewardValue", "")}
          {...invalidProps("rr-new-rewardValue", errorOf("rr-new", "rewardValue"))}
        />
        {err("rr-new", "rewardValue")}
        <label className="choice">
          <input type="checkbox" name="enabled" defaultChecked /> Enabled
        </label>
        <button type="submit" disabled={busy}>
          Add redemption rule
        </button>
      </Form>

      <h2 id="tiers">VIP tiers</h2>
      {program.vipTiers.length === 0 ? (
        <p className="empty">No VIP tiers.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="tiers">
            <caption className="visually-hidden">VIP tiers: lifetime points needed, the points multiplier and the perks</caption>
            <thead>
              <tr>
                <th scope="col">Tier</th>
                <th scope="col">Name</th>
                <th scope="col">Lifetime points needed</th>
                <th scope="col">Points multiplier</th>
                <th scope="col">Perks (one per line)</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {program.vipTiers.map((t) => {
                const f = `vt-${t.id}`;
                return (
                  <tr key={t.id}>
                    <th scope="row">{t.name}</th>
                    <td>
                      <input {...cell(f, "name", `Name of ${t.name}`)} required maxLength={80} defaultValue={valueOf(f, "name", t.name)} />
                      {err(f, "name")}
                    </td>
                    <td>
                      <input
                        {...cell(f, "pointsThreshold", `Lifetime points needed for ${t.name}`)}
                        type="number"
                        min={0}
                        step={1}
                        required
                        defaultValue={valueOf(f, "pointsThreshold", t.threshold)}
                      />
                      {err(f, "pointsThreshold")}
                    </td>
                    <td>
                      <input
                        {...cell(f, "pointsMultiplier", `Points multiplier of ${t.name}`)}
                        type="number"
                        min={0.01}
                        max={10}
                        step="any"
                        required
                        defaultValue={valueOf(f, "pointsMultiplier", t.multiplier)}
                      />
                      {err(f, "pointsMultiplier")}
                    </td>
                    <td>
                      <textarea {...cell(f, "perks", `Perks of ${t.name}`)} rows={2} defaultValue={valueOf(f, "perks", t.perks.join("\n"))} />
                      {err(f, "perks")}
                    </td>
                    <td className="actions">
                      {rowForm(f, "vip-tier", t.id, t.name)} {removeForm("remove-vip-tier", t.id, t.name)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Form key={`add-tier-${program.vipTiers.map((t) => t.id).join()}`} method="post" className="stack panel" noValidate aria-labelledby="add-tier">
        <h3 id="add-tier">Add a VIP tier</h3>
        {addFailure("vt-new")}
        <CsrfField />
        <input type="hidden" name="intent" value="add-vip-tier" />
        <label htmlFor="vt-new-name">Tier name</label>
        <input id="vt-new-name" name="name" maxLength={80} required defaultValue={valueOf("vt-new", "name", "")} {...invalidProps("vt-new-name", errorOf("vt-new", "name"))} />
        {err("vt-new", "name")}
        <label htmlFor="vt-new-pointsThreshold">Lifetime points needed</label>
        <input
          id="vt-new-pointsThreshold"
          name="pointsThreshold"
          type="number"
          min={0}
          step={1}
          required
          defaultValue={valueOf("vt-new", "pointsThreshold", "")}
          {...invalidProps("vt-new-pointsThreshold", errorOf("vt-new", "pointsThreshold"))}
        />
        {err("vt-new", "pointsThreshold")}
        <label htmlFor="vt-new-pointsMultiplier">Points multiplier (1 = normal, 1.5 = 50% more)</label>
        <input
          id="vt-new-pointsMultiplier"
          name="pointsMultiplier"
          type="number"
          min={0.01}
          max={10}
          step="any"
          required
          defaultValue={valueOf("vt-new", "pointsMultiplier", "1")}
          {...invalidProps("vt-new-pointsMultiplier", errorOf("vt-new", "pointsMultiplier"))}
        />
        {err("vt-new", "pointsMultiplier")}
        <label htmlFor="vt-new-perks">Perks (one per line)</label>
        <textarea id="vt-new-perks" name="perks" rows={3} defaultValue={valueOf("vt-new", "perks", "")} {...invalidProps("vt-new-perks", errorOf("vt-new", "perks"))} />
        {err("vt-new", "perks")}
        <button type="submit" disabled={busy}>
          Add VIP tier
        </button>
      </Form>

      <h2>Legal policies</h2>
      <Form method="post" className="stack panel" noValidate>
        <CsrfField />
        <input type="hidden" name="intent" value="legal" />
        <p className="muted">
          Current version: <strong data-testid="legal-version">{legal.version}</strong>. Saving a change publishes a new version: shoppers accept it when they join.
        </p>
        <label htmlFor="l-button">Join button text</label>
        <input
          id="l-button"
          name="buttonText"
          required
          maxLength={120}
          defaultValue={valueOf("legal", "buttonText", legal.acceptTermsAndJoinProgramButtonText)}
          {...invalidProps("l-button", errorOf("legal", "buttonText"))}
        />
        <FieldError id="l-button" error={errorOf("legal", "buttonText")} />
        <label htmlFor="l-html">Policy sentence (HTML: links and simple formatting only; anything else is removed on save)</label>
        <textarea
          id="l-html"
          name="policyHtml"
          rows={3}
          maxLength={4000}
          defaultValue={valueOf("legal", "policyHtml", legal.policySentence.html)}
          {...invalidProps("l-html", errorOf("legal", "policyHtml"))}
        />
        <FieldError id="l-html" error={errorOf("legal", "policyHtml")} />
        <label htmlFor="l-template">
          Policy sentence template (must contain {"{termsAndConditions}"} and {"{privacyPolicy}"})
        </label>
        <textarea
          id="l-template"
          name="policyTemplate"
          rows={2}
          maxLength={2000}
          required
          defaultValue={valueOf("legal", "policyTemplate", legal.policySentence.template)}
          {...invalidProps("l-template", errorOf("legal", "policyTemplate"))}
        />
        <FieldError id="l-template" error={errorOf("legal", "policyTemplate")} />
        <label htmlFor="l-terms">Terms and conditions URL</label>
        <input id="l-terms" name="termsUrl" required defaultValue={valueOf("legal", "termsUrl", legal.termsAndConditionsUrl)} {...invalidProps("l-terms", errorOf("legal", "termsUrl"))} />
        <FieldError id="l-terms" error={errorOf("legal", "termsUrl")} />
        <label htmlFor="l-privacy">Privacy policy URL</label>
        <input id="l-privacy" name="privacyUrl" required defaultValue={valueOf("legal", "privacyUrl", legal.privacyPolicyUrl)} {...invalidProps("l-privacy", errorOf("legal", "privacyUrl"))} />
        <FieldError id="l-privacy" error={errorOf("legal", "privacyUrl")} />
        <p className="muted">
          Stored sentence, as text: <code data-testid="legal-html">{legal.policySentence.html}</code>
        </p>
        <button type="submit" disabled={busy}>
          Save legal policies
        </button>
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
