import { writeFile } from "node:fs/promises";
import type { EventTemplateOptions } from "./event-templates.ts";

/** Writes the event bodies of a load run; the generators (faker, fast-check) load only when a run writes them. */
export async function writeEventTemplates(file: string, options: EventTemplateOptions): Promise<number> {
  const { buildEventTemplates } = await import("./build-event-templates.ts");
  const content = JSON.stringify(buildEventTemplates(options));
  await writeFile(file, content);
  return Buffer.byteLength(content);
}
