import type { Nodes, Paragraph, Root, Table, TableCell } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";

// An independent CommonMark + GFM reader (micromark), so tests check what GitHub's renderer sees, not our strings.

/** `markdown` as a GitHub-flavoured Markdown reader parses it. */
export function markdownTree(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** Every node of the tree, depth first. */
export function markdownNodes(tree: Nodes): Nodes[] {
  const nodes: Nodes[] = [tree];
  if ("children" in tree) for (const child of tree.children) nodes.push(...markdownNodes(child));
  return nodes;
}

/** The nodes a reader can act on: links (incl. autolinks and definitions), images and raw HTML. */
export function liveNodes(markdown: string): Nodes[] {
  return markdownNodes(markdownTree(markdown)).filter((node) =>
    ["link", "image", "linkReference", "imageReference", "definition", "html"].includes(node.type),
  );
}

/** The plain text a reader sees in `node` (inline code included), as one string. */
export function textOf(node: Nodes): string {
  if ("value" in node && typeof node.value === "string") return node.value;
  if ("children" in node) return node.children.map((child) => textOf(child)).join("");
  return "";
}

/** The one paragraph `markdown` is, as a reader parses it; throws when it is anything else. */
export function paragraphOf(markdown: string): Paragraph {
  const { children } = markdownTree(markdown);
  const [only, ...others] = children;
  if (only?.type !== "paragraph" || others.length > 0)
    throw new Error(`not one paragraph: ${JSON.stringify(markdown)}`);
  return only;
}

/**
 * The code a reader gets from `node` (a paragraph or a table cell) when it holds one code span and nothing else;
 * undefined when anything else is there, before or after, or no code span at all.
 */
export function codeSpanOf(node: Paragraph | TableCell | undefined): string | undefined {
  const [only, ...others] = node?.children ?? [];
  return only?.type === "inlineCode" && others.length === 0 ? only.value : undefined;
}

/** Every table of `markdown`, each as its rows (header first), each row as its cells, as a GFM reader splits them. */
export function tablesOf(markdown: string): TableCell[][][] {
  return markdownNodes(markdownTree(markdown))
    .filter((node): node is Table => node.type === "table")
    .map((table) => table.children.map((row) => row.children));
}

/**
 * The cells of one table row as a GFM reader splits it: read under a one-column header, since a reader keeps every
 * cell a body row has, more or fewer than its header's.
 */
export function tableRowCells(row: string): TableCell[] {
  const [table] = tablesOf(`| |\n| - |\n${row}\n`);
  const cells = table?.[1];
  if (cells === undefined) throw new Error(`not a table row: ${JSON.stringify(row)}`);
  return cells;
}
