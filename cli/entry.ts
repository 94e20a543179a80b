import { commands } from "./commands/index.ts";
import { main } from "./main.ts";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => controller.abort(new Error(`received ${signal}`)));
}

process.exitCode = await main(process.argv.slice(2), commands, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
