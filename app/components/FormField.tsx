import type { InputHTMLAttributes, ReactNode } from "react";

/**
 * A labelled form field with its error shown next to it: the input carries `aria-invalid` and
 * `aria-describedby` pointing at the error (and at the hint, when there is one), so a screen reader reads
 * the message with the field. `error` undefined: no error. Extra props go to the `<input>` (or are the
 * `<select>`'s options through `children`).
 */
export function FormField({
  name,
  label,
  error,
  hint,
  children,
  ...input
}: {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const id = input.id ?? `field-${name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  const common = { id, name, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy } as const;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint muted" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children ? (
        <select {...common} defaultValue={input.defaultValue as string | undefined} required={input.required}>
          {children}
        </select>
      ) : (
        <input {...input} {...common} />
      )}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
