import { defineConfig } from "vitest/config";
import { ProgressReporter } from "./test/support/progress-reporter.ts";

/**
 * The files that wait on real time or on a real tool (k6 runs, the full contract profile's token lifetimes, the
 * oidc-provider target, the browser, Go), and whole runs that are not the in-process CLI or run the full profile's
 * number of inputs. Everything else is the `unit` project, which `npm run test:fast` runs.
 */
const SLOW = [
  // Real k6 runs.
  "test/cli/commands/load-k6.test.ts",
  "test/cli/commands/load-idle-gap.test.ts",
  "test/cli/commands/load-interrupt.test.ts",
  "test/cli/commands/load-instances.test.ts",
  "test/cli/commands/load-foreign-k6.test.ts",
  "test/cli/commands/load-memory.test.ts",
  "test/cli/commands/baseline.test.ts",
  "test/cli/commands/accepted-load.test.ts",
  "test/cli/commands/target-reach.test.ts",
  "test/cli/commands/redirects.test.ts",
  "test/cli/commands/run-load.test.ts",
  "test/cli/commands/report-dir-claims-load.test.ts",
  "test/cli/commands/load-listeners.test.ts",
  "test/cli/commands/token-param-redaction-load.test.ts",
  "test/cli/commands/load-capacity*.test.ts",
  "test/cli/commands/load-starved-generator.test.ts",
  "test/cli/run/issuer-once.test.ts",
  "test/k6-tooling/operator/*.test.ts",
  "test/k6-tooling/bundle/bundle-load.test.ts",
  "test/reporting/compare/read-load-record.test.ts",
  // The full contract profile: each run waits out token lifetimes.
  "test/contracts/fault-matrix-full.test.ts",
  "test/contracts/checks/slow-machine.test.ts",
  "test/cli/commands/contract-interrupt.test.ts",
  "test/cli/commands/contract-progress.test.ts",
  "test/contracts/checks/lifetime-messages.test.ts",
  // The input-handling fault rows: the property-based stage at the full profile's number of inputs.
  "test/contracts/fault-matrix-inputs.test.ts",
  // Whole default-profile runs whose stage inputs are answered late: shrinking waits on each answer.
  "test/cli/commands/contract-slow-inputs.test.ts",
  // The real CLI process against targets that echo secrets or send hostile text: every file it writes is searched.
  "test/cli/commands/echo-targets.test.ts",
  "test/cli/commands/hostile-targets.test.ts",
  // Real authorization servers (oidc-provider, Keycloak), the packed CLI, the GitHub Action's script, a browser, Go.
  "test/integration/**/*.test.ts",
  "test/scripts/build/*.test.ts",
  "test/action/*.test.ts",
  "test/**/*.browser.test.ts",
  "test/tools/**/*.test.ts",
];

export default defineConfig({
  test: {
    // Integration tests start real servers and, later, real k6 runs: give them room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Files are independent (port 0, temporary directories) and most of a slow file's time is waiting: three
    // workers keep two cores busy. VITEST_MAX_WORKERS or --maxWorkers overrides it.
    maxWorkers: 3,
    // One line as the run starts and one every half minute, so a CI log shows progress from its first seconds.
    reporters: ["default", new ProgressReporter()],
    // Both projects share the three workers: vitest runs the slow files first, then the unit files.
    projects: [
      {
        extends: true,
        test: {
          name: "slow",
          include: SLOW,
          // One Keycloak for the run, started only when a file asks for it (test/support/keycloak/).
          globalSetup: ["test/support/keycloak/keycloak-global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: SLOW,
          // A worker keeps its imported modules from file to file: importing the harness afresh for each of 180
          // files cost a third of the project's time. Files own their state (fixtures, restored timers), and
          // nothing relies on the order files run in.
          isolate: false,
          // In a random order each run (the seed is printed; --sequence.seed replays it), so a file that leaves
          // state behind for the next one fails here rather than hiding behind a fixed order.
          sequence: { shuffle: { files: true, tests: false } },
        },
      },
    ],
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
