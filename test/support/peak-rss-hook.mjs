// Loaded with `node --import` into a CLI child: on exit it writes the process's peak resident set (kB, worker
// threads included) to the file EAH_PEAK_RSS_FILE names, which no other way reads once the process is gone.
import { writeFileSync } from "node:fs";

const file = process.env.EAH_PEAK_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
