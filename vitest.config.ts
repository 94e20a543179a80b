import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests start real servers and, later, real k6 runs: give them room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
