import { existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { markdownNodes, markdownTree, textOf } from "./support/markdown-tree.ts";
import { packedFiles } from "./support/packed-files.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Every Markdown file under `dir` (relative to the repository), recursively. */
async function markdownUnder(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? markdownUnder(path.join(dir, entry.name))
        : entry.name.endsWith(".md")
          ? [path.join(dir, entry.name)]
          : [],
    ),
  );
  return nested.flat();
}

/** The pages a user reads: the READMEs, the changelog, CONTRIBUTING and everything in docs/. */
async function userPages(): Promise<string[]> {
  return ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "load/README.md", ...(await markdownUnder("docs"))];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const node of markdownNodes(markdownTree(markdown))) {
    if (node.type !== "heading") continue;
    const slug = textOf(node)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
      .replaceAll(" ", "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of the Markdown file at `absolute`, read once. */
async function anchorsAt(absolute: string): Promise<Set<string>> {
  const cached = anchorCache.get(absolute);
  if (cached !== undefined) return cached;
  const anchors = anchorsOf(await readFile(absolute, "utf8"));
  anchorCache.set(absolute, anchors);
  return anchors;
}

/** The relative links of `markdown` (the text of `file`) whose target is not among `shipped`. */
function linksOutside(file: string, markdown: string, shipped: ReadonlySet<string>): string[] {
  const outside: string[] = [];
  for (const node of markdownNodes(markdownTree(markdown))) {
    if (node.type !== "link" && node.type !== "definition" && node.type !== "image") continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(node.url)) continue;
    const [target = ""] = node.url.split("#");
    if (target === "") continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
    const folder = resolved.endsWith("/") ? resolved : `${resolved}/`;
    if (!shipped.has(resolved) && ![...shipped].some((packed) => packed.startsWith(folder)))
      outside.push(`${file}: ${node.url}`);
  }
  return outside;
}

/** The relative links of `markdown` (the text of `file`) that do not resolve, each with what is wrong. */
async function brokenLinks(file: string, markdown: string): Promise<string[]> {
  const broken: string[] = [];
  for (const node of markdownNodes(markdownTree(markdown))) {
    if (node.type !== "link" && node.type !== "definition" && node.type !== "image") continue;
    const url = node.url;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto: — not a file of this repository
    const [target = "", anchor] = url.split("#");
    const resolved =
      target === "" ? path.join(ROOT, file) : path.join(ROOT, path.dirname(file), decodeURI(target));
    if (!resolved.startsWith(ROOT) || !existsSync(resolved)) {
      broken.push(`${file}: ${url} (no such file)`);
      continue;
    }
    if (anchor === undefined || !resolved.endsWith(".md") || statSync(resolved).isDirectory()) continue;
    if (!(await anchorsAt(resolved)).has(anchor)) broken.push(`${file}: ${url} (no such heading)`);
  }
  return broken;
}

describe("links in the user's pages", () => {
  it("every relative link resolves to a file of the repository, and its anchor to a heading there", async () => {
    const pages = await userPages();
    expect(pages.length).toBeGreaterThan(15);
    const texts = await Promise.all(pages.map((page) => readFile(path.join(ROOT, page), "utf8")));
    const broken = (await Promise.all(pages.map((page, i) => brokenLinks(page, texts[i] ?? "")))).flat();
    expect(broken).toEqual([]);
  });

  it("an installed package keeps them: every page a packed page links to is packed too", {
    timeout: 60_000,
  }, async () => {
    const shipped = await packedFiles();
    expect(shipped.has("README.md")).toBe(true);
    const pages = [...shipped].filter((file) => file.endsWith(".md"));
    const texts = await Promise.all(pages.map((page) => readFile(path.join(ROOT, page), "utf8")));
    expect(pages.flatMap((page, i) => linksOutside(page, texts[i] ?? "", shipped))).toEqual([]);
    expect(linksOutside("README.md", "[a](docs/x.md) [b](load/) [c](#top)", new Set(["load/a.ts"]))).toEqual([
      "README.md: docs/x.md",
    ]);
  });

  it("the check itself finds a missing file and a missing heading", async () => {
    const page =
      "[a](docs/ci.md#node-versions) [b](docs/nowhere.md) [c](docs/ci.md#nowhere) [d](#nowhere) [e](https://x.test/)";
    expect(await brokenLinks("README.md", page)).toEqual([
      "README.md: docs/nowhere.md (no such file)",
      "README.md: docs/ci.md#nowhere (no such heading)",
      "README.md: #nowhere (no such heading)",
    ]);
    const anchors = anchorsOf(
      "# The `load` part\n## Exit codes\n## Exit codes\n## Client models (`--client-model`)",
    );
    expect([...anchors]).toEqual([
      "the-load-part",
      "exit-codes",
      "exit-codes-1",
      "client-models---client-model",
    ]);
  });

  it("no page speaks of how the harness came to be: no work periods, no tracker numbers", async () => {
    // The words are spelled in parts so that this file does not hold what it forbids.
    const period = new RegExp(`\\b${"ses"}${"sion"}s?\\b`, "i");
    for (const page of await userPages()) {
      const text = await readFile(path.join(ROOT, page), "utf8");
      expect(text, page).not.toMatch(period);
      expect(text, page).not.toMatch(/\bissues? \d/i);
    }
  });
});
