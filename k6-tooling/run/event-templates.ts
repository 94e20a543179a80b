import { writeFile } from "node:fs/promises";
import fc from "fast-check";
import { createEventGenerator, REFERENCE_STEM_SLOT, wideEventArbitrary } from "../../generators/index.ts";
import type { EventTemplateFile } from "../../load/index.ts";
import { EVENT_TEMPLATE_FORMAT, toEventTemplate, toSuffixedEventTemplate } from "../../load/index.ts";

/** Templates per run: enough variety for realistic bodies, small enough (~300 KB) to share across VUs. */
export const EVENT_TEMPLATE_COUNT = 1024;

export interface EventTemplateOptions {
  readonly runId: string;
  readonly seed: number;
  /** Post every event to this channel (a target that restricts channels); default a generated pool. */
  readonly channelId?: string | undefined;
  readonly count?: number;
  /**
   * `plain` (default): the faker generator's happy path. `wide`: valid events from the whole space the spec allows
   * (the property-based contract checks' generator): + and non-ASCII addresses, long references with quotes and
   * emoji, emoji in system. Dates are the VU's clock either way, as production clients send them.
   */
  readonly events?: EventsKind;
}

export const EVENTS_KINDS = ["plain", "wide"] as const;
export type EventsKind = (typeof EVENTS_KINDS)[number];

/**
 * Generates the event bodies a load run sends, in Node with the faker generator, before k6 starts: faker inside
 * k6 would cost every VU its own copy (megabytes each). k6 loads the file once into a SharedArray.
 */
export function buildEventTemplates(options: EventTemplateOptions): EventTemplateFile {
  const count = options.count ?? EVENT_TEMPLATE_COUNT;
  if (options.events === "wide") {
    const arbitrary = wideEventArbitrary(
      options.channelId === undefined ? {} : { channels: [options.channelId] },
    );
    const events = fc.sample(arbitrary, { seed: options.seed, numRuns: count });
    return {
      format: EVENT_TEMPLATE_FORMAT,
      runId: options.runId,
      // The generated part of each reference follows the VU's unique one.
      templates: events.map((event) =>
        toSuffixedEventTemplate(event, `-${event.transaction.reference.replace(REFERENCE_STEM_SLOT, "")}`),
      ),
    };
  }
  const generator = createEventGenerator({
    seed: options.seed,
    runId: options.runId,
    ...(options.channelId === undefined ? {} : { channels: [options.channelId] }),
  });
  return {
    format: EVENT_TEMPLATE_FORMAT,
    runId: options.runId,
    templates: generator.take(count).map(toEventTemplate),
  };
}

export async function writeEventTemplates(file: string, options: EventTemplateOptions): Promise<number> {
  const content = JSON.stringify(buildEventTemplates(options));
  await writeFile(file, content);
  return Buffer.byteLength(content);
}
