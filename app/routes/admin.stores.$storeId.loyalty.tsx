import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { isApiError } from "../../server/contract/errors.ts";
import { AdminErrorBoundary } from "~/components/AdminErrorBoundary";
import { CsrfField } from "~/components/CsrfField";
import { Flash } from "~/components/Flash";
import { adminHeaders, field, requireStore, requireStoreAction } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Loyalty · Chorus admin" }];
export const headers = adminHeaders;

/** Loyalty settings (issue 7 §5): earning rules, redemption rules, VIP tiers and legal policies. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { store } = requireStore(request, context, params.storeId);
  if (!context.services.loyalty.hasProgram(store.storeId)) return { storeId: store.storeId, program: null };
  const p = context.services.loyalty.adminProgram(store.storeId);
  return {
    storeId: store.storeId,
    program: {
      earningRules: p.earningRules.map((r) => ({ id: r.earning_rule_id, type: r.type, name: r.name, points: r.points, perUnit: r.points_per_currency_unit, enabled: r.enabled === 1 })),
      redemptionRules: p.redemptionRules.map((r) => ({ id: r.redemption_rule_id, type: r.type, name: r.name, pointsCost: r.points_cost, reward: r.reward_description, enabled: r.enabled === 1 })),
      vipTiers: p.vipTiers.map((t) => ({ id: t.vip_tier_id, name: t.name, threshold: t.points_threshold, multiplier: t.points_multiplier })),
      legal: p.legalPolicies,
    },
  };
}

/** A form number; NaN when empty or not a number (the service answers 400 naming the field). */
const num = (form: FormData, name: string) => {
  const v = field(form, name);
  return v === "" ? Number.NaN : Number(v);
};

/** Intents: earning-rule, redemption-rule, vip-tier, legal. Another store's rule or tier answers 404 and is not changed. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { store, form } = await requireStoreAction(request, context, params.storeId);
  const { loyalty } = context.services;
  const intent = field(form, "intent");
  try {
    switch (intent) {
      case "earning-rule":
        loyalty.updateEarningRule(store.storeId, field(form, "id"), {
          points: num(form, "points"), ...(form.has("perUnit") ? { pointsPerCurrencyUnit: num(form, "perUnit") } : {}), enabled: form.get("enabled") === "on",
        });
        return { ok: "Earning rule saved." };
      case "redemption-rule":
        loyalty.updateRedemptionRule(store.storeId, field(form, "id"), { pointsCost: num(form, "pointsCost"), enabled: form.get("enabled") === "on" });
        return { ok: "Redemption rule saved." };
      case "vip-tier":
        loyalty.updateVipTier(store.storeId, field(form, "id"), { pointsThreshold: num(form, "threshold"), pointsMultiplier: num(form, "multiplier") });
        return { ok: "VIP tier saved. Members' tiers were recalculated." };
      case "legal": {
        const before = loyalty.legalPolicies(store.storeId).version;
        const after = loyalty.editLegalPolicies(store.storeId, {
          acceptTermsAndJoinProgramButtonText: field(form, "buttonText"), policySentenceHtml: String(form.get("policyHtml") ?? ""),
          policySentenceTemplate: field(form, "policyTemplate"), privacyPolicyUrl: field(form, "privacyUrl"), termsAndConditionsUrl: field(form, "termsUrl"),
        });
        return { ok: after.version === before ? "Nothing changed: the legal policies keep their version." : `Legal policies saved as version ${after.version}. Shoppers accept this version when they join.` };
      }
      default:
        return data({ error: `Unknown action ${JSON.stringify(intent)}.` }, { status: 400 });
    }
  } catch (error) {
    if (isApiError(error) && error.status < 500) return data({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function Loyalty() {
  const { storeId, program } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (!program) {
    return (
      <section aria-labelledby="page-title">
        <h1 id="page-title">Loyalty</h1>
        <p className="empty">This store has no loyalty program yet. It is set up from the command line or by the demo seeder (see docs/loyalty.md).</p>
      </section>
    );
  }
  const legal = program.legal;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Loyalty</h1>
      <Flash result={result} />
      <p><Link to={`/admin/stores/${storeId}/loyalty/customers`}>Customers: status, points, block, adjust points</Link></p>

      <h2 id="earning">Earning rules</h2>
      <div className="table-wrap">
        <table aria-labelledby="earning">
          <caption className="visually-hidden">Earning rules: how customers earn points</caption>
          <thead><tr><th scope="col">Rule</th><th scope="col">Points</th><th scope="col">Points per currency unit</th><th scope="col">Enabled</th><th scope="col"><span className="visually-hidden">Save</span></th></tr></thead>
          <tbody>
            {program.earningRules.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.name} <span className="muted">({r.type})</span></th>
                <td>
                  <input form={`er-${r.id}`} type="number" name="points" min={0} step={1} required defaultValue={r.points} aria-label={`Points for ${r.name}`} />
                </td>
                <td>
                  {r.type === "points-per-spend" ? (
                    <input form={`er-${r.id}`} type="number" name="perUnit" min={0} step="any" required defaultValue={r.perUnit ?? 0} aria-label={`Points per currency unit for ${r.name}`} />
                  ) : <span className="muted">–</span>}
                </td>
                <td><input form={`er-${r.id}`} type="checkbox" name="enabled" defaultChecked={r.enabled} aria-label={`${r.name} enabled`} /></td>
                <td>
                  <Form method="post" id={`er-${r.id}`}>
                    <CsrfField />
                    <input type="hidden" name="intent" value="earning-rule" />
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" className="secondary" disabled={busy} aria-label={`Save ${r.name}`}>Save</button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="redemption">Redemption rules</h2>
      <div className="table-wrap">
        <table aria-labelledby="redemption">
          <caption className="visually-hidden">Redemption rules: rewards customers buy with points</caption>
          <thead><tr><th scope="col">Reward</th><th scope="col">Points cost</th><th scope="col">Enabled</th><th scope="col"><span className="visually-hidden">Save</span></th></tr></thead>
          <tbody>
            {program.redemptionRules.map((r) => (
              <tr key={r.id}>
                <th scope="row">{r.name} <span className="muted">({r.reward})</span></th>
                <td><input form={`rr-${r.id}`} type="number" name="pointsCost" min={1} step={1} required defaultValue={r.pointsCost} aria-label={`Points cost of ${r.name}`} /></td>
                <td><input form={`rr-${r.id}`} type="checkbox" name="enabled" defaultChecked={r.enabled} aria-label={`${r.name} enabled`} /></td>
                <td>
                  <Form method="post" id={`rr-${r.id}`}>
                    <CsrfField />
                    <input type="hidden" name="intent" value="redemption-rule" />
                    <input type="hidden" name="id" value={r.id} />
                    <button type="submit" className="secondary" disabled={busy} aria-label={`Save ${r.name}`}>Save</button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="tiers">VIP tiers</h2>
      {program.vipTiers.length === 0 ? <p className="empty">No VIP tiers.</p> : (
        <div className="table-wrap">
          <table aria-labelledby="tiers">
            <caption className="visually-hidden">VIP tiers: lifetime points needed and the points multiplier</caption>
            <thead><tr><th scope="col">Tier</th><th scope="col">Lifetime points needed</th><th scope="col">Points multiplier</th><th scope="col"><span className="visually-hidden">Save</span></th></tr></thead>
            <tbody>
              {program.vipTiers.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.name}</th>
                  <td><input form={`vt-${t.id}`} type="number" name="threshold" min={0} step={1} required defaultValue={t.threshold} aria-label={`Lifetime points needed for ${t.name}`} /></td>
                  <td><input form={`vt-${t.id}`} type="number" name="multiplier" min={0.01} max={10} step="any" required defaultValue={t.multiplier} aria-label={`Points multiplier of ${t.name}`} /></td>
                  <td>
                    <Form method="post" id={`vt-${t.id}`}>
                      <CsrfField />
                      <input type="hidden" name="intent" value="vip-tier" />
                      <input type="hidden" name="id" value={t.id} />
                      <button type="submit" className="secondary" disabled={busy} aria-label={`Save ${t.name}`}>Save</button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>Legal policies</h2>
      <Form method="post" className="stack panel">
        <CsrfField />
        <input type="hidden" name="intent" value="legal" />
        <p className="muted">Current version: <strong data-testid="legal-version">{legal.version}</strong>. Saving a change publishes a new version: shoppers accept it when they join.</p>
        <label htmlFor="l-button">Join button text</label>
        <input id="l-button" name="buttonText" required maxLength={120} defaultValue={legal.acceptTermsAndJoinProgramButtonText} />
        <label htmlFor="l-html">Policy sentence (HTML: links and simple formatting only; anything else is removed on save)</label>
        <textarea id="l-html" name="policyHtml" rows={3} maxLength={4000} defaultValue={legal.policySentence.html} />
        <label htmlFor="l-template">Policy sentence template (must contain {"{termsAndConditions}"} and {"{privacyPolicy}"})</label>
        <textarea id="l-template" name="policyTemplate" rows={2} maxLength={2000} required defaultValue={legal.policySentence.template} />
        <label htmlFor="l-terms">Terms and conditions URL</label>
        <input id="l-terms" name="termsUrl" required defaultValue={legal.termsAndConditionsUrl} />
        <label htmlFor="l-privacy">Privacy policy URL</label>
        <input id="l-privacy" name="privacyUrl" required defaultValue={legal.privacyPolicyUrl} />
        <p className="muted">Stored sentence, as text: <code data-testid="legal-html">{legal.policySentence.html}</code></p>
        <button type="submit" disabled={busy}>Save legal policies</button>
      </Form>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary };
