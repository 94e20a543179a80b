/**
 * Throughput of the event generator on one core: generate + JSON.stringify per event, against a baseline of
 * JSON.stringify of one constant event measured in the same run, so the ratio holds on any machine.
 * Run: npm run bench:generate [-- --events N --rounds R]
 */
import { parseArgs } from "node:util";
import type { CheckoutEvent } from "../../domain/index.ts";
import { createEventGenerator, INVALID_VARIANTS } from "../../generators/index.ts";

const GOAL_EVENTS_PER_SECOND = 100_000;

const { values } = parseArgs({
  options: { events: { type: "string", default: "200000" }, rounds: { type: "string", default: "7" } },
});
const events = Number(values.events);
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(events) || events < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
  throw new RangeError("--events and --rounds take whole numbers ≥ 1");
}

/** Events per second of one round; the summed lengths keep the optimiser from skipping the work. */
function round(produce: () => unknown): { rate: number; bytes: number } {
  let bytes = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < events; i++) bytes += JSON.stringify(produce()).length;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { rate: events / seconds, bytes };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function measure(label: string, produce: () => unknown): number {
  round(produce); // Warm-up: lets the JIT optimise and fills the generator's e-mail pool.
  const rates: number[] = [];
  for (let i = 0; i < rounds; i++) rates.push(round(produce).rate);
  const result = median(rates);
  console.log(`${label.padEnd(34)} ${format(result)} events/s (median of ${rounds} rounds of ${events})`);
  return result;
}

function format(rate: number): string {
  return Math.round(rate).toLocaleString("en-US").padStart(11);
}

const generator = createEventGenerator({ seed: 42 });
const constant: CheckoutEvent = createEventGenerator({ seed: 42 }).next();
const invalidSource = createEventGenerator({ seed: 43 });
let variantIndex = 0;

console.log(`node ${process.version}, one core, ${events} events per round`);
const baseline = measure("baseline: stringify constant event", () => constant);
const generated = measure("generator: next() + stringify", () => generator.next());
const invalid = measure("invalid: next() + apply + stringify", () => {
  variantIndex = (variantIndex + 1) % INVALID_VARIANTS.length;
  return INVALID_VARIANTS[variantIndex]?.apply(invalidSource.next());
});
console.log(`ratio generator / baseline: ${(generated / baseline).toFixed(3)}`);
console.log(`ratio invalid / baseline:   ${(invalid / baseline).toFixed(3)}`);
console.log(
  `goal ≥ ${GOAL_EVENTS_PER_SECOND.toLocaleString("en-US")} generated events/s: ${generated >= GOAL_EVENTS_PER_SECOND ? "met" : "NOT met"}`,
);
