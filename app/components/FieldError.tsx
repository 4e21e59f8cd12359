/**
 * Per-field validation messages of admin forms: `invalidProps(id, error)` gives an input its
 * `aria-invalid` and `aria-describedby` (pointing at the message), and `<FieldError>` renders the
 * message next to the field with the matching ID (styled by `.field-error`, as FormField's). Nothing is
 * rendered or set without an error. For inputs outside a FormField layout (table cells, `form=` inputs).
 */
export function invalidProps(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
}
