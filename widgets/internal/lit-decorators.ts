/**
 * The widget build's stand-ins (widgets/vite.config.ts `resolve.alias`) for `lit/decorators.js` and tslib's
 * `__decorate`: the widgets use Lit's decorators only in the legacy (`experimentalDecorators`) form on class
 * fields, so this is Lit's legacy code path alone (its module also carries the standard-decorator path, and
 * tslib's `__decorate` the descriptor and `Reflect.decorate` cases): about 0.3 KB gzip less in the shared
 * chunk. Same behaviour for the widgets' uses; sources, tests and the server renderer import the real ones.
 * Today the widgets declare every reactive property in `static properties` tables, so the build keeps only
 * `__decorate`, for the class decorator `@chorusElement(tag)`; `property`, `state` and `query` are here for a
 * widget that takes up a field decorator again.
 */
import type { PropertyDeclaration, ReactiveElement } from "lit";

type Proto = { constructor: unknown; hasOwnProperty(name: PropertyKey): boolean };

/** `@property(options)` on a class field: declares the reactive property on the class (Lit's `legacyProperty`). */
export const property =
  (options?: PropertyDeclaration) =>
  (proto: Proto, name: PropertyKey): PropertyDescriptor | undefined => {
    const own = Object.hasOwn(proto, name);
    (proto.constructor as typeof ReactiveElement).createProperty(name, options);
    return own ? Object.getOwnPropertyDescriptor(proto, name) : undefined;
  };

/** `@state()`: an internal reactive property (no attribute). */
export const state = (options?: PropertyDeclaration) => property({ ...options, state: true, attribute: false });

/** `@query(selector)`: a getter for the first match of `selector` in the render root (Lit's, without its cache option). */
export const query = (selector: string) => (): PropertyDescriptor => ({
  get(this: ReactiveElement) {
    return this.renderRoot?.querySelector(selector) ?? null;
  },
  configurable: true,
  enumerable: true,
});

/**
 * tslib's `__decorate` for what TypeScript emits here: class decorators (`__decorate([d], C)`: the class a
 * decorator returns replaces it) and field decorators (`__decorate([d], proto, "name", void 0)`: a descriptor
 * a decorator returns is defined on `proto`). Decorators apply last to first.
 */
/** A class decorator (called with the class) or a field decorator (called with prototype, name, descriptor). */
type Decorator = (target: unknown, key?: PropertyKey, desc?: unknown) => unknown;

export function __decorate(decorators: Decorator[], target: object, key?: PropertyKey, desc?: PropertyDescriptor | null): unknown {
  const isClass = key === undefined;
  let result: unknown = isClass ? target : desc === null ? Object.getOwnPropertyDescriptor(target, key) : desc;
  for (let i = decorators.length; i--;) result = (isClass ? decorators[i]!(result) : decorators[i]!(target, key, result)) || result;
  if (!isClass && result) Object.defineProperty(target, key, result as PropertyDescriptor);
  return result;
}
