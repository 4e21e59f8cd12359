// ESLint (flat config): typescript-eslint's recommended rules plus the type-aware rules an async
// codebase needs (a promise that nobody awaits, a promise where a value is expected, `await` on a
// non-promise, an `async` function that never awaits). Run by `npm run lint` in .ci/run before the tests,
// with zero warnings allowed. Layout is Prettier's alone (`npm run format:check`, .prettierrc.json):
// eslint-config-prettier, last, turns off every rule that could disagree with it.
import js from "@eslint/js";
import prettier from "eslint-config-prettier/flat";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "public/**", "node_modules/**", "data/**", "bench/results/**", "test-results/**", "playwright-report/**", "coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/require-await": "error",
      // `interface X extends Y {}` is how a library's interface is extended (declaration merging).
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // `_name` marks a binding kept on purpose; `{ a, ...rest }` leaves `a` out of `rest`.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], extends: [tseslint.configs.disableTypeChecked] },
  prettier,
);
