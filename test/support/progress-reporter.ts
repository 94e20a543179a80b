import type { Reporter, TestModule, TestSpecification, Vitest } from "vitest/node";

const EVERY_MS = 30_000;

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Says what the run is doing while it runs: one line as it starts (files per project, workers), then every half
 * minute how many files are done and which are still running, longest first. The default reporter still prints each
 * finished file and the failures; this one only fills the silence a long file would leave in a CI log.
 */
export class ProgressReporter implements Reporter {
  #vitest: Vitest | undefined;
  #started = 0;
  #total = 0;
  #done = 0;
  readonly #running = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.#started = Date.now();
    this.#total = specifications.length;
    this.#done = 0;
    this.#running.clear();
    const perProject = new Map<string, number>();
    for (const spec of specifications) {
      const name = spec.project.name || "tests";
      perProject.set(name, (perProject.get(name) ?? 0) + 1);
    }
    const projects = [...perProject].map(([name, count]) => `${name} ${count}`).join(", ");
    const workers = this.#vitest?.config.maxWorkers ?? "?";
    this.#log(`running ${this.#total} test files (${projects}) on ${workers} workers`);
    this.#timer = setInterval(() => this.#heartbeat(), EVERY_MS);
    this.#timer.unref();
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#running.set(this.#name(testModule), Date.now());
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.#running.delete(this.#name(testModule));
    this.#done += 1;
  }

  onTestRunEnd(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #heartbeat(): void {
    const now = Date.now();
    const running = [...this.#running]
      .sort(([, a], [, b]) => a - b)
      .map(([name, since]) => `${name} (${seconds(now - since)})`);
    this.#log(
      `${seconds(now - this.#started)}: ${this.#done} of ${this.#total} files done` +
        (running.length > 0 ? `; running ${running.join(", ")}` : ""),
    );
  }

  #name(testModule: TestModule): string {
    return `${testModule.project.name}:${testModule.relativeModuleId}`;
  }

  #log(line: string): void {
    if (this.#vitest) this.#vitest.logger.log(`… ${line}`);
    else process.stdout.write(`… ${line}\n`);
  }
}
