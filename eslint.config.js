import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

// The boundaries the tooling keeps (see docs/dependencies.md for the packages themselves).

// Libraries' built files are their internals: an upgrade may change them without notice. Only the
// modules that contain a measured trick reach into them, each behind one module.
const DIST_INTERNALS = {
  group: ["**/dist/**"],
  message: "A library's dist/ files are its internals; only the contained modules may import them.",
};
const DIST_EXCEPTIONS = [
  "apps/api/src/db/shapes.ts",
  "apps/api/src/serializer.ts",
  "apps/api/src/db/pglite-thread.ts",
  // its upgrade test (docs/decisions/012) reads the same internals, to fail loudly when they change
  "apps/api/src/db/pglite-thread-upgrade.test.ts",
];

/** One app never imports another app's source: what both need lives in a package (packages/*). */
const otherAppsSource = (other) => ({
  group: [`**/${other}/src/**`, `@core-care/${other}`, `@core-care/${other}/**`],
  message: `Import from a package under packages/, never from apps/${other}'s source.`,
});

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.turbo/**",
      "**/.reports/**",
      "**/data/**",
      "**/test-results/**",
      "**/playwright-report/**",
      "apps/api/drizzle/**",
      "**/*.config.js",
      "**/vitest.config.ts",
      "**/vite.config.ts",
      "**/playwright.config.ts",
      "**/drizzle.config.ts",
      ".ci/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "no-restricted-imports": ["error", { patterns: [DIST_INTERNALS] }],
      // The environment is read in one place per app, config.ts, which parses and documents it.
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read the environment in config.ts (loadConfig), and take the value from there.",
        },
      ],
    },
  },
  {
    files: ["apps/web/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [DIST_INTERNALS, otherAppsSource("api")] }] },
  },
  {
    files: ["apps/api/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [DIST_INTERNALS, otherAppsSource("web")] }] },
  },
  {
    // The contained modules, each with its decision record and upgrade test.
    files: DIST_EXCEPTIONS,
    rules: { "no-restricted-imports": "off" },
  },
  {
    // A published data file, not code: ajv documents this path as the way to add the draft-06 meta-schema.
    files: ["apps/api/test/peers/standards.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [otherAppsSource("web")] }] },
  },
  {
    // process.env is allowed where a process is set up rather than the product configured: config.ts,
    // tests and their peers (they set and restore variables for the server they start), the benches
    // and the repository scripts (they choose ports, folders and browsers for one run).
    files: [
      "**/config.ts",
      "**/*.test.ts",
      "**/*.test.tsx",
      "apps/api/test/**",
      "apps/web/e2e/**",
      "**/bench/**",
      "scripts/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // Plain JavaScript (repository checks, worker threads' entries); no TypeScript project covers it,
    // so it is linted without type information.
    files: ["**/*.cjs", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["apps/web/src/**/*.tsx", "apps/web/src/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
    },
  },
);
