// @ts-check
// Whether this Node.js can run the harness, judged by package.json's engines.node before anything else loads. Plain
// JavaScript with no syntax newer than Node.js 12 parses, so an old Node gets a sentence instead of a stack trace.

/**
 * @typedef {[number, number, number]} Version
 * @typedef {{ kind: "caret" | "at-least" | "exact", version: Version, given: number }} Comparator
 */

/**
 * "20.19.0" → [20, 19, 0]; a prerelease or build suffix ("24.0.0-nightly…") is dropped; undefined if not a version.
 * @param {string} text
 * @returns {{ version: Version, given: number } | undefined}
 */
function parseVersion(text) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (match === null) return undefined;
  const parts = [match[1], match[2], match[3]].filter((part) => part !== undefined);
  return {
    version: [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)],
    given: parts.length,
  };
}

/**
 * The comparators of an engines range made of `^X.Y.Z`, `>=X.Y.Z` and `X.Y.Z` joined by `||` (shorter versions
 * too); undefined for any other syntax, which this reader does not judge.
 * @param {string} range
 * @returns {Comparator[] | undefined}
 */
export function parseEnginesRange(range) {
  /** @type {Comparator[]} */
  const comparators = [];
  for (const alternative of range.split("||")) {
    const match = /^\s*(\^|>=)?\s*(\S+)\s*$/.exec(alternative);
    const parsed = match === null ? undefined : parseVersion(match[2] || "");
    if (match === null || parsed === undefined) return undefined;
    const kind = match[1] === "^" ? "caret" : match[1] === ">=" ? "at-least" : "exact";
    if (kind === "exact" && parsed.given < 3) return undefined;
    comparators.push({ kind, version: parsed.version, given: parsed.given });
  }
  return comparators.length === 0 ? undefined : comparators;
}

/**
 * @param {Version} a
 * @param {Version} b
 */
function compare(a, b) {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The first version a caret comparator no longer allows: the next major (the next minor or patch below 1.0.0).
 * @param {Version} version
 * @returns {Version}
 */
function caretCeiling(version) {
  if (version[0] > 0) return [version[0] + 1, 0, 0];
  if (version[1] > 0) return [0, version[1] + 1, 0];
  return [0, 0, version[2] + 1];
}

/**
 * @param {Version} version
 * @param {Comparator} comparator
 */
function allows(version, comparator) {
  if (comparator.kind === "exact") return compare(version, comparator.version) === 0;
  if (compare(version, comparator.version) < 0) return false;
  return comparator.kind === "at-least" || compare(version, caretCeiling(comparator.version)) < 0;
}

/**
 * Whether `nodeVersion` (process.versions.node) is in `range` (engines.node); undefined when either cannot be read.
 * @param {string} nodeVersion
 * @param {string} range
 * @returns {boolean | undefined}
 */
export function satisfiesEngines(nodeVersion, range) {
  const comparators = parseEnginesRange(range);
  const parsed = parseVersion(nodeVersion);
  if (comparators === undefined || parsed === undefined) return undefined;
  return comparators.some((comparator) => allows(parsed.version, comparator));
}

/**
 * "20.19" for 20.19.0, "24" for >=24: a version as short as its comparator needs it.
 * @param {Version} version
 */
function shortVersion(version) {
  if (version[2] !== 0) return version.join(".");
  return version[1] === 0 ? String(version[0]) : `${version[0]}.${version[1]}`;
}

/**
 * @param {Comparator} comparator
 */
function describeComparator(comparator) {
  const version = comparator.version;
  if (comparator.kind === "exact") return version.join(".");
  if (comparator.kind === "at-least") return `${shortVersion(version)} or later`;
  if (version[0] === 0) return `${version.join(".")} up to ${caretCeiling(version).join(".")}`;
  if (version[1] === 0 && version[2] === 0) return `any ${version[0]}.x`;
  return `${shortVersion(version)} or a later ${version[0]}.x`;
}

/**
 * The supported versions in words: "20.19 or a later 20.x, 22.13 or a later 22.x, or 24 or later".
 * @param {string} range
 * @returns {string | undefined}
 */
export function describeEngines(range) {
  const comparators = parseEnginesRange(range);
  if (comparators === undefined) return undefined;
  const words = comparators.map(describeComparator);
  if (words.length === 1) return words[0];
  return `${words.slice(0, -1).join(", ")}, or ${words[words.length - 1]}`;
}

/**
 * The one sentence that refuses this Node.js, or undefined when it is supported. A range or version this reader
 * cannot judge refuses nothing: the check never stands in the way of a Node it is unsure about.
 * @param {string} nodeVersion process.versions.node
 * @param {{ name?: unknown, version?: unknown, engines?: { node?: unknown } }} packageJson
 * @returns {string | undefined}
 */
export function unsupportedNodeSentence(nodeVersion, packageJson) {
  // biome-ignore lint/complexity/useOptionalChain: Node.js 12 does not parse optional chaining.
  const range = packageJson.engines && packageJson.engines.node;
  if (typeof range !== "string" || satisfiesEngines(nodeVersion, range) !== false) return undefined;
  return (
    `Node.js ${nodeVersion} is not supported: ${String(packageJson.name)} ${String(packageJson.version)} runs on ` +
    `Node.js ${describeEngines(range)} (package.json engines: ${range}); install one of those and run it again`
  );
}
