import fc from "fast-check";
import { createEventGenerator, REFERENCE_STEM_SLOT, wideEventArbitrary } from "../../generators/index.ts";
import type { EventTemplateFile } from "../../load/index.ts";
import { EVENT_TEMPLATE_FORMAT, toEventTemplate, toSuffixedEventTemplate } from "../../load/index.ts";
import type { EventTemplateOptions } from "./event-templates.ts";
import { EVENT_TEMPLATE_COUNT } from "./event-templates.ts";

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
