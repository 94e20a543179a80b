import { describe, expect, it } from "vitest";
import { defineCommand, parseCommandArgs } from "../../../cli/command.ts";
import { argvOf } from "../../../cli/options/option-argv.ts";

const probe = defineCommand({
  name: "probe",
  summary: "",
  usage: "probe",
  options: {
    dir: { type: "string", description: "" },
    fault: { type: "string", multiple: true, description: "" },
    revoke: { type: "boolean", description: "" },
  },
  run: async () => 0,
});

describe("argvOf", () => {
  it("writes options in their order: strings, repeated lists, flags, and nothing for false", () => {
    expect(argvOf({ dir: "out", fault: ["a", "b"], revoke: true, quiet: false })).toEqual([
      "--dir",
      "out",
      "--fault",
      "a",
      "--fault",
      "b",
      "--revoke",
    ]);
  });

  it("gives back, through the command's own parser, the values it was given, a dash-led value included", () => {
    const values = { dir: "-reports", fault: ["--odd", "plain"], revoke: true };
    expect(parseCommandArgs(probe, argvOf(values)).options).toEqual(values);
  });
});
