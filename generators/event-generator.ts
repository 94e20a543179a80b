import { base, en, Faker } from "@faker-js/faker";
import type { NextUint32 } from "../core/index.ts";
import { below, createSfc32 } from "../core/index.ts";
import type { CheckoutEvent } from "../domain/index.ts";
import { CHANNEL_PREFIX, completeEventSchema } from "../domain/index.ts";
import packageJson from "../package.json" with { type: "json" };
import { EXAMPLE_EMAIL_DOMAINS, toSafeLocalPart } from "./example-email.ts";

/** Faker seeds are 32-bit: larger or negative seeds would silently collide with others. */
export const MAX_SEED = 0xffff_ffff;
/** A run id is safe inside a reference, a file name and a log line. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const MAX_CHANNEL_POOL = 10_000;

export const GENERATOR_DEFAULTS = {
  type: "checkout",
  channels: 5,
  referencePrefix: "eah-",
  system: "event-api-harness",
  systemVersion: packageJson.version,
  /** A fixed reference date, never the clock, so the same seed gives byte-identical output on any day. */
  startDate: "2026-01-01T00:00:00.000Z",
} as const;

/** Distinct customer local parts drawn from faker before they are reused; faker's email costs ~9 µs, a pick ~10 ns. */
const EMAIL_POOL_SIZE = 1024;
/** Consecutive transaction dates are 0–1999 ms apart: about one event a second, always increasing or equal. */
const MAX_DATE_STEP_MS = 2000;
/** Each concern draws from its own seeded stream, so changing one option (say the channel count) leaves the rest alone. */
const STREAM = { choices: 1, channels: 2, emails: 3 } as const;
/** Dates beyond year 9999 would not format as `YYYY-…`; keep ample room for long runs. */
const LATEST_START = Date.UTC(9000, 0, 1);

export interface EventGeneratorOptions {
  /** Same seed and options → byte-identical events. An integer from 0 to MAX_SEED. */
  readonly seed: number;
  /** Makes references unique across runs; defaults to `s<seed>`, which repeats when the seed does. */
  readonly runId?: string | undefined;
  /** A pool size (1..MAX_CHANNEL_POOL) of seeded `chl-<uuid>` ids, or the ids themselves. */
  readonly channels?: number | readonly string[] | undefined;
  readonly referencePrefix?: string | undefined;
  readonly system?: string | undefined;
  readonly systemVersion?: string | undefined;
  /** Date of the first transaction; later ones follow it. */
  readonly startDate?: Date | string | number | undefined;
  readonly type?: string | undefined;
}

export interface EventGenerator {
  readonly seed: number;
  readonly runId: string;
  readonly channels: readonly string[];
  readonly type: string;
  readonly system: string;
  readonly systemVersion: string;
  /** Every reference is this followed by the event's 1-based sequence number. */
  readonly referenceStem: string;
  /** ISO date of the first transaction. */
  readonly startDate: string;
  /** How many events `next` has produced. */
  readonly count: number;
  next(): CheckoutEvent;
  take(n: number): CheckoutEvent[];
}

/** Creates a deterministic generator of valid checkout events (every documented field present, see `completeEventSchema`). */
export function createEventGenerator(options: EventGeneratorOptions): EventGenerator {
  const seed = checkSeed(options.seed);
  const runId = checkRunId(options.runId ?? `s${seed}`);
  const type = checkText("type", options.type ?? GENERATOR_DEFAULTS.type);
  const system = checkText("system", options.system ?? GENERATOR_DEFAULTS.system);
  const systemVersion = checkText("systemVersion", options.systemVersion ?? GENERATOR_DEFAULTS.systemVersion);
  const referencePrefix = options.referencePrefix ?? GENERATOR_DEFAULTS.referencePrefix;
  const start = toStartTime(options.startDate ?? GENERATOR_DEFAULTS.startDate);

  // A dedicated instance: seeding it never disturbs the shared `faker` other code may use.
  const faker = new Faker({ locale: [en, base] });
  faker.seed([seed, STREAM.choices]);
  const word = () => faker.number.int({ min: 0, max: MAX_SEED });
  const random: NextUint32 = createSfc32(word(), word(), word(), word());
  faker.seed([seed, STREAM.channels]);
  const channels = resolveChannels(options.channels ?? GENERATOR_DEFAULTS.channels, () =>
    faker.string.uuid(),
  );
  faker.seed([seed, STREAM.emails]);

  const localParts: string[] = [];
  const referenceStem = `${referencePrefix}${runId}-`;
  const channelCount = channels.length;
  const domainCount = EXAMPLE_EMAIL_DOMAINS.length;
  let clock = start;
  let count = 0;

  const localPart = (): string => {
    if (localParts.length < EMAIL_POOL_SIZE) {
      const fresh = toSafeLocalPart(faker.internet.exampleEmail());
      localParts.push(fresh);
      return fresh;
    }
    return localParts[below(random, EMAIL_POOL_SIZE)] as string;
  };

  const next = (): CheckoutEvent => {
    count += 1;
    const email = `${localPart()}@${EXAMPLE_EMAIL_DOMAINS[below(random, domainCount)] as string}`;
    const channelId = channels[below(random, channelCount)] as string;
    const date = new Date(clock).toISOString();
    clock += below(random, MAX_DATE_STEP_MS);
    // Key order is part of the output contract: byte-identical NDJSON for the same seed.
    return {
      type,
      customer: { email },
      channel: { id: channelId },
      transaction: { reference: `${referenceStem}${count}`, date },
      system,
      systemVersion,
    };
  };

  return {
    seed,
    runId,
    channels,
    type,
    system,
    systemVersion,
    referenceStem,
    startDate: new Date(start).toISOString(),
    get count() {
      return count;
    },
    next,
    take(n: number): CheckoutEvent[] {
      if (!Number.isSafeInteger(n) || n < 0)
        throw new RangeError(`take(n) needs a whole number ≥ 0, got ${n}`);
      const events = new Array<CheckoutEvent>(n);
      for (let i = 0; i < n; i++) events[i] = next();
      return events;
    },
  };
}

function checkSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new RangeError(`seed must be a whole number from 0 to ${MAX_SEED}, got ${seed}`);
  }
  return seed;
}

function checkRunId(runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) {
    throw new RangeError(
      `runId must match ${RUN_ID_PATTERN} (letters, digits, '.', '_', '-'), got '${runId}'`,
    );
  }
  return runId;
}

function checkText(name: string, value: string): string {
  if (typeof value !== "string" || value.length === 0)
    throw new RangeError(`${name} must be a non-empty string`);
  return value;
}

function toStartTime(startDate: Date | string | number): number {
  const time = new Date(startDate).getTime();
  if (!Number.isFinite(time) || time < 0 || time >= LATEST_START) {
    throw new RangeError(`startDate must be a valid date from 1970 to 8999, got '${String(startDate)}'`);
  }
  return time;
}

function resolveChannels(channels: number | readonly string[], uuid: () => string): readonly string[] {
  if (typeof channels === "number") {
    if (!Number.isInteger(channels) || channels < 1 || channels > MAX_CHANNEL_POOL) {
      throw new RangeError(`channels must be a pool size from 1 to ${MAX_CHANNEL_POOL}, got ${channels}`);
    }
    return Object.freeze(Array.from({ length: channels }, () => `${CHANNEL_PREFIX}${uuid()}`));
  }
  if (channels.length === 0) throw new RangeError("channels must list at least one channel id");
  const channelIdSchema = completeEventSchema.shape.channel.shape.id;
  for (const id of channels) {
    if (!channelIdSchema.safeParse(id).success) {
      throw new RangeError(
        `channel id '${String(id)}' must start with '${CHANNEL_PREFIX}' and have more after it`,
      );
    }
  }
  if (new Set(channels).size !== channels.length) throw new RangeError("channels must not repeat an id");
  return Object.freeze([...channels]);
}
