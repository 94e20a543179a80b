// Report writers shared by the contract suite (Node) and the k6 scenarios (k6 runtime): no Node or k6 APIs here.
// run/ is Node-only and imports contracts/ and load/, which import this file: it has its own index.ts.
// Durations and counted nouns are written by core/, which every layer may import; reporting re-exports them for its own readers.
export type { DurationParts } from "../core/index.ts";
export { countNoun, formatDuration, formatDurationCompact, splitDuration } from "../core/index.ts";
export { EMBEDDED_SANDBOX_NOTE } from "./embedded-sandbox-note.ts";
export type { JunitCase, JunitOutcome, JunitReport, JunitSuite } from "./junit-xml.ts";
export { renderJunitXml, xmlText } from "./junit-xml.ts";
export {
  codeBlock,
  codeCell,
  codeSpan,
  detailsBlock,
  escapePipes,
  htmlText,
  inlineCell,
  inlineText,
  paragraphText,
  tableCell,
  tableHead,
  tableRow,
  warningCallout,
} from "./markdown.ts";
