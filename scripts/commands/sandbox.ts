import { defineCommand } from "../cli/command.ts";
import { UsageError } from "../cli/usage-error.ts";

export const sandboxCommand = defineCommand({
  name: "sandbox",
  summary: "(not built yet)",
  usage: "sandbox [options]",
  options: {},
  async run() {
    throw new UsageError("unknown-command", "'sandbox' is not built yet");
  },
});
