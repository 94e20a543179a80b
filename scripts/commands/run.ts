import { defineCommand } from "../cli/command.ts";
import { UsageError } from "../cli/usage-error.ts";

export const runCommand = defineCommand({
  name: "run",
  summary: "(not built yet)",
  usage: "run [options]",
  options: {},
  async run() {
    throw new UsageError("unknown-command", "'run' is not built yet");
  },
});
