import type { Nodes, Root } from "mdast";
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
