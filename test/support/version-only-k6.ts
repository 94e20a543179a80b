import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A stand-in k6 at `dir`/k6 that only answers `k6 version`, listing the harness's extensions when `harness` says so
 * (as k6 v2.2.0's own build does), so finding and judging a k6 is tested without the real binary.
 */
export async function versionOnlyK6(dir: string, version: string, harness = false): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "k6");
  const extensions = harness
    ? 'echo "Extensions:"\necho "  event-api-harness/tools/k6/harness , k6/x/harness [js]"\n' +
      'echo "  event-api-harness/tools/k6/samples.New , harness-samples [output]"\n'
    : "";
  await writeFile(file, `#!/bin/sh\necho "k6 ${version} (go1.26.8, linux/amd64)"\n${extensions}`);
  await chmod(file, 0o755);
  return file;
}
