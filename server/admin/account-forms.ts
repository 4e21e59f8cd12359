/**
 * The fields of the account forms (sign-up, new store, invitation, password reset) as zod schemas, and
 * the one way their errors reach a form: a message per field name (issue #21 "Bad input and security").
 * Pure: the services validate with these, and the routes show `fieldErrors` next to each field.
 */
import { z } from "zod";
import { ApiError } from "../contract/errors.ts";
import { safeHref } from "../contract/safe-href.ts";
import { MIN_PASSWORD_LENGTH } from "./admin.service.ts";
import { PLATFORMS } from "./platforms.ts";
import { ROLES } from "./roles.ts";

/** Longest password accepted (characters): argon2 hashes any length, this bounds the work per request. */
export const MAX_PASSWORD_LENGTH = 256;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Anything that can be mailed (RFC 5321 limits 254 characters), stored trimmed and lower-cased. */
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter an e-mail address.")
  .max(254, "An e-mail address has at most 254 characters.")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "Enter an e-mail address like name@example.com.");

/** A new password: 8 to 256 characters, kept as typed (spaces count). */
export const passwordField = z.string().min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`).max(MAX_PASSWORD_LENGTH, `Use at most ${MAX_PASSWORD_LENGTH} characters.`);

/** A store's name as shoppers and the team see it: 1 to 100 characters, no control characters. */
export const storeNameField = z
  .string()
  .trim()
  .min(1, "Enter the store's name.")
  .max(100, "A store name has at most 100 characters.")
  .refine((v) => !CONTROL.test(v), "The store name cannot contain control characters.");

export const platformField = z.enum(PLATFORMS, { error: "Choose the shop's platform: Shopify, BigCommerce, WooCommerce or custom." });

/**
 * The shop's address: an absolute http(s) URL written out with its scheme, at most 2,048 characters, that
 * the one link rule (server/contract/safe-href.ts `safeHref`) keeps; stored as `safeHref` resolved it.
 */
export const shopUrlField = z
  .string()
  .trim()
  .min(1, "Enter the shop's address, e.g. https://shop.example.com.")
  .max(2048, "The shop's address has at most 2,048 characters.")
  .transform((raw, ctx) => {
    const href = /^https?:\/\//i.test(raw) ? safeHref(raw, "https://chorus.invalid/") : null;
    const url = href ? new URL(href) : null;
    if (!url || !/^https?:$/.test(url.protocol) || !url.hostname || url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "Enter the shop's full address starting with https:// or http://, e.g. https://shop.example.com." });
      return z.NEVER;
    }
    return url.href;
  });

/** A new store: its name, platform and shop address. */
export const newStoreSchema = z.object({ storeName: storeNameField, platform: platformField, shopUrl: shopUrlField });
/** Sign-up: the owner's e-mail and password and the new store. */
export const signupSchema = newStoreSchema.extend({ email: emailField, password: passwordField });
export type SignupInput = z.output<typeof signupSchema>;
export type NewStoreInput = z.output<typeof newStoreSchema>;
/** An invitation: who, with which role (default member). */
export const inviteSchema = z.object({ email: emailField, role: z.enum(ROLES, { error: "Choose owner or member." }).default("member") });

/** Per-field messages: field name → the first problem found with it. */
export type FieldErrors = Record<string, string>;

const FIELD_BRAND = Symbol.for("chorus.FieldError");

/**
 * An error whose messages belong next to form fields (e.g. a taken e-mail found only in the database):
 * an ApiError (400, `invalid_fields`) carrying the message per field. Recognised with `isFieldError`
 * (a brand, not `instanceof`: the Remix build holds its own copy of this module).
 */
export class FieldError extends ApiError {
  readonly [FIELD_BRAND] = true;
  readonly fieldErrors: FieldErrors;
  constructor(fieldErrors: FieldErrors, status = 400) {
    super(status, Object.values(fieldErrors).join(" "), "invalid_fields");
    this.fieldErrors = fieldErrors;
  }
}

/** Whether `value` is a FieldError (from any copy of this module). */
export const isFieldError = (value: unknown): value is FieldError => typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[FIELD_BRAND] === true;

/**
 * Parse `values` with `schema`. @returns the data, or `fieldErrors` (the first message per field; a
 * problem with no field goes under `form`).
 */
export function parseFields<S extends z.ZodType>(schema: S, values: unknown): { data: z.output<S>; fieldErrors?: undefined } | { data?: undefined; fieldErrors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = typeof issue.path[0] === "string" ? issue.path[0] : "form";
    fieldErrors[key] ??= issue.message;
  }
  return { fieldErrors };
}
