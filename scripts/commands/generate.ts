import { defineCommand } from "../cli/command.ts";
import { UsageError } from "../cli/usage-error.ts";

export const generateCommand = defineCommand({
  name: "generate",
  summary: "(not built yet)",
  usage: "generate [options]",
  options: {},
  async run() {
    throw new UsageError("unknown-command", "'generate' is not built yet");
  },
});
