// The run command's machinery: settings, the parts' plan, their execution and the one verdict. Heavy to import (it
// reaches every other command), so the command imports it only when it runs.

export { runAll } from "./run-all.ts";
export type { RunOptionValues } from "./run-settings.ts";
