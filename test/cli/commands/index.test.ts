import { describe, expect, it } from "vitest";
import { commands } from "../../../cli/commands/index.ts";

describe("the command registry", () => {
  it.each(commands.map((entry) => [entry.name, entry] as const))(
    "%s: the module it loads is the command it names, with the same summary",
    async (name, entry) => {
      const command = await entry.load();
      expect(command.name).toBe(name);
      expect(command.summary).toBe(entry.summary);
    },
  );

  it("names each command once", () => {
    const names = commands.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
