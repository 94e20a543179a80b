import { describe, expect, it } from "vitest";
import packageJson from "../package.json" with { type: "json" };

// npm runs only `prepare` when it installs a git dependency (pack lifecycles are the CLI's, not pacote's): the
// compiled CLI, which the installed bin imports, must be built there.
describe("package.json build scripts", () => {
  it("builds the CLI in prepare, which both npm pack and a git-commit install run", () => {
    const scripts: Readonly<Record<string, string | undefined>> = packageJson.scripts;
    expect(scripts.prepare).toBe("npm run build");
    expect(
      scripts.prepack,
      "npm pack runs prepare too: a prepack build would be a second one",
    ).toBeUndefined();
  });
});
