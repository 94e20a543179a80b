import { writeFile } from "node:fs/promises";
import { createEventGenerator } from "../../generators/index.ts";
import type { EventTemplateFile } from "../../load/index.ts";
import { EVENT_TEMPLATE_FORMAT, toEventTemplate } from "../../load/index.ts";

/** Templates per run: enough variety for realistic bodies, small enough (~300 KB) to share across VUs. */
export const EVENT_TEMPLATE_COUNT = 1024;

export interface EventTemplateOptions {
  readonly runId: string;
  readonly seed: number;
  /** Post every event to this channel (a target that restricts channels); default a generated pool. */
  readonly channelId?: string | undefined;
  readonly count?: number;
}

/**
 * Generates the event bodies a load run sends, in Node with the faker generator, before k6 starts: faker inside
 * k6 would cost every VU its own copy (megabytes each). k6 loads the file once into a SharedArray.
 */
export function buildEventTemplates(options: EventTemplateOptions): EventTemplateFile {
  const generator = createEventGenerator({
    seed: options.seed,
    runId: options.runId,
    ...(options.channelId === undefined ? {} : { channels: [options.channelId] }),
  });
  return {
    format: EVENT_TEMPLATE_FORMAT,
    runId: options.runId,
    templates: generator.take(options.count ?? EVENT_TEMPLATE_COUNT).map(toEventTemplate),
  };
}

export async function writeEventTemplates(file: string, options: EventTemplateOptions): Promise<number> {
  const content = JSON.stringify(buildEventTemplates(options));
  await writeFile(file, content);
  return Buffer.byteLength(content);
}
