/**
 * The e-mail to a store's team when one of its webhook subscriptions is disabled after repeated failure
 * (docs/webhooks.md), besides the notice on the admin's Webhooks page. Enqueued in the transaction that
 * disables the subscription (services.mail.enqueue joins it), once per member and disabling.
 */
import type { OutgoingMail } from "../mail/mail.service.ts";
import { renderMail } from "../mail/render.ts";

export type DisabledNotice = { storeId: string; storeName: string; subscriptionId: string; url: string; reason: string; disabledMs: number; adminOrigin: string };

/** One message per recipient in `emails` (deduplicated per subscription, disabling and address). */
export function disabledSubscriptionMails(n: DisabledNotice, emails: readonly string[]): OutgoingMail[] {
  const { html, text } = renderMail({
    storeName: n.storeName,
    preheader: "Chorus stopped sending events to a webhook URL.",
    heading: "A webhook subscription was disabled",
    paragraphs: [
      `Chorus could not deliver events to ${n.url} for about a day, so it stopped sending them.`,
      n.reason,
      "Events that happen while the subscription is disabled are not sent. Fix the receiver, then enable the subscription again on the Webhooks page; you can replay failed deliveries from its log.",
    ],
    action: { label: "Open the Webhooks page", url: `${n.adminOrigin.replace(/\/+$/, "")}/admin/stores/${n.storeId}/webhooks` },
  });
  return emails.map((to) => ({
    storeId: n.storeId,
    kind: "webhook-disabled",
    to,
    subject: `Webhook disabled: ${n.url.slice(0, 120)}`,
    html,
    text,
    dedupeKey: `webhook-disabled:${n.subscriptionId}:${n.disabledMs}:${to.toLowerCase()}`,
  }));
}
