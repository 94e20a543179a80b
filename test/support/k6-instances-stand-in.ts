import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** What each stand-in instance does: serve k6's REST API and copy its recorded outputs, or fail at start. */
export interface InstancesStandIn {
  /** A folder holding `instance-N/summary.json` and `instance-N/samples.csv.gz`, copied when instance N is resumed. */
  readonly recorded: string;
  /** The instance (1-based) that exits with 107 before its REST API answers, after a line on stderr. */
  readonly failingInstance?: number;
}

/**
 * A stand-in for k6 that `--instances` runs: `k6 version` names the harness's build; `k6 run --paused --address A`
 * answers k6's REST API on A as a paused test, and once resumed (PATCH /v1/status) copies instance N's recorded
 * summary and samples to where the harness asked for them and exits 0. It never sends a request to a target.
 */
export async function instancesStandInK6(dir: string, options: InstancesStandIn): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "k6");
  const script = `#!${process.execPath}
const { copyFileSync } = require("node:fs");
const { createServer } = require("node:http");
const path = require("node:path");
const recorded = ${JSON.stringify(options.recorded)};
const failing = ${JSON.stringify(options.failingInstance ?? 0)};
const [command, ...args] = process.argv.slice(2);
if (command === "version") {
  console.log("k6 v2.2.0 (go1.26.8, linux/amd64)");
  console.log("Extensions:");
  console.log("  event-api-harness/tools/k6/harness , k6/x/harness [js]");
  console.log("  event-api-harness/tools/k6/samples.New , harness-samples [output]");
  process.exit(0);
}
if (command !== "run") process.exit(2);
const samples = args.find((a) => a.startsWith("csv=fileName=")).slice("csv=fileName=".length).split(",")[0];
const instanceDir = path.dirname(samples);
const instance = Number(/instance-(\\d+)$/.exec(instanceDir)[1]);
if (instance === failing) {
  process.stderr.write("stand-in instance failed at start\\n");
  process.exit(107);
}
const [host, port] = args[args.indexOf("--address") + 1].split(":");
let status = 4;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    const paused = status === 4;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: { type: "status", id: "default", attributes: { status, paused } } }));
    if (req.method === "PATCH" && paused) {
      status = 7;
      copyFileSync(path.join(recorded, "instance-" + instance, "summary.json"), path.join(instanceDir, "summary.json"));
      copyFileSync(path.join(recorded, "instance-" + instance, "samples.csv.gz"), samples);
      setTimeout(() => { server.close(); process.exit(0); }, 50);
    }
  });
});
server.listen(Number(port), host);
// Bounded: a stand-in never resumed ends by itself.
setTimeout(() => process.exit(3), 30000).unref();
`;
  await writeFile(file, script);
  await chmod(file, 0o755);
  return file;
}
