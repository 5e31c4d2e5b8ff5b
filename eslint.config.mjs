// ESLint: Next's core-web-vitals rules (react-hooks included) and its TypeScript rules over
// the whole tree; `npm test` runs it (scripts/test.sh, stage "lint").
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      "reports/**",
      "test-results/**",
      "bench/results/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      // a leading underscore names a value left out on purpose (a destructured field dropped)
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Playwright fixtures and test harnesses call a fixture's `use`, which is not React's hook;
    // tests read JSON answers back and assert them by value, so `any` there is the JSON itself
    files: ["e2e/**", "test/**", "bench/**", "**/*.test.ts"],
    rules: { "react-hooks/rules-of-hooks": "off", "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // the rules file is CommonJS, as dependency-cruiser loads it
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
