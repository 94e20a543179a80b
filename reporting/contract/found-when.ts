import type { Counterexample } from "../../contracts/index.ts";
import { formatDuration } from "../index.ts";

/** "found at input 3 after 0.4 s, shrunk 12 times in 2.1 s": how a property-based check came to its input. */
export function foundWhen(found: Counterexample): string {
  const { input, afterMs, shrinkMs } = found.foundAt;
  const when = afterMs > 0 ? ` after ${formatDuration(afterMs)}` : " (replayed)";
  return `found at input ${input}${when}, shrunk ${found.shrinks} times in ${formatDuration(shrinkMs)}`;
}
