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
