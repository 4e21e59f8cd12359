/**
 * Texts with markup inside, apart from ./strings.ts so that the star badge's page does not load it
 * (widgets/vite.config.ts: "ui" chunk).
 */
/**
 * `text` split at its placeholders, each replaced by `vars[name]` (which may be a Lit template): an array
 * Lit renders in order, for texts with markup inside (a link, a `<time>`). Unknown placeholders stay text.
 */
export function fillParts(text: string, vars: Record<string, unknown>): unknown[] {
  return text.split(/(\{\w+\})/).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in vars ? vars[name] : part;
  });
}
