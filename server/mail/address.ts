/**
 * The sender address (`MAIL_FROM`): parsed with nodemailer's own address parser, so what the config accepts
 * is what nodemailer sends. Pure; config.ts validates with it.
 */
import addressparser from "nodemailer/lib/addressparser/index.js";
import { z } from "zod";

/** The default sender when MAIL_FROM is not set. */
export const DEFAULT_MAIL_FROM = "Chorus <no-reply@localhost>";

/**
 * Parse a From value: one mailbox, `Name <user@domain>` or `user@domain`.
 * @returns the display name (may be empty), the address and its domain (for Message-ID), or null when it is not one valid mailbox.
 */
export function parseMailFrom(value: string): { name: string; address: string; domain: string } | null {
  if (/[\r\n]/.test(value)) return null;
  const parsed = addressparser(value, { flatten: true });
  if (parsed.length !== 1) return null;
  const { name, address } = parsed[0];
  // zod's e-mail check wants a dotted domain; `localhost` is allowed too, for development.
  const domain = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  if (!(domain === "localhost" ? /^[^\s@<>()",;:\\[\]]+@localhost$/i.test(address) : z.email().safeParse(address).success)) return null;
  return { name, address, domain };
}
