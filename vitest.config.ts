import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests start real servers and, later, real k6 runs: give them room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    coverage: {
      provider: "v8",
      // The shipped Node code; load/ runs in k6, where vitest cannot measure it.
      include: [
        "domain/**/*.ts",
        "transport/**/*.ts",
        "generators/**/*.ts",
        "sandbox/**/*.ts",
        "contracts/**/*.ts",
        "k6-tooling/**/*.ts",
        "reporting/**/*.ts",
        "cli/**/*.ts",
      ],
      exclude: ["test/**", "scripts/**", "dist/**", "load/**"],
      reporter: ["text-summary", "html", "json-summary"],
      reportsDirectory: "coverage",
    },
  },
});
