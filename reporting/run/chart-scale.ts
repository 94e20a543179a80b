/** A "nice" step (1, 2, 2.5 or 5 × 10^n) that splits `range` into about `count` intervals. */
export function niceStep(range: number, count: number): number {
  if (!(range > 0) || !(count > 0)) return 1;
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  const nice = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 2.5 ? 2.5 : residual <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Axis ticks from 0 to at least `max`; the last tick is the axis end. Whole-number steps for counts. */
export function niceTicks(max: number, count = 4, integer = false): number[] {
  const top = max > 0 ? max : 1;
  const step = integer ? Math.max(1, Math.floor(niceStep(top, count))) : niceStep(top, count);
  const ticks: number[] = [];
  for (let value = 0; value < top + step / 2 && ticks.length <= count * 3; value += step) {
    ticks.push(Math.round(value * 1e6) / 1e6);
  }
  if ((ticks.at(-1) ?? 0) < top) ticks.push(Math.round(((ticks.at(-1) ?? 0) + step) * 1e6) / 1e6);
  return ticks;
}

/** Time ticks in seconds at human steps (1 s, 5 s, 10 s, 30 s, 1 min, …). */
export function timeTicks(totalSeconds: number, count = 6): number[] {
  const steps = [
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400,
  ];
  const step =
    steps.find((candidate) => totalSeconds / candidate <= count) ??
    86_400 * Math.ceil(totalSeconds / 86_400 / count);
  const ticks: number[] = [];
  for (let t = 0; t <= totalSeconds && ticks.length <= count * 2; t += step) ticks.push(t);
  return ticks;
}

/** A value for an axis label or tooltip: short, without float noise. */
export function formatNumber(value: number): string {
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (abs >= 10_000) return `${Math.round(value / 1000)}k`;
  if (abs >= 1000) return `${Math.round(value / 100) / 10}k`;
  if (abs >= 100) return String(Math.round(value));
  if (abs >= 10) return String(Math.round(value * 10) / 10);
  return String(Math.round(value * 100) / 100);
}
