import { isAbsolute, relative, sep } from "node:path";

/** A path as the user would type it: relative inside the working directory, absolute outside it. */
export function displayPath(file: string): string {
  const inside = relative(process.cwd(), file);
  // On Windows a path on another drive stays absolute.
  const outside = inside === ".." || inside.startsWith(`..${sep}`);
  return inside === "" || outside || isAbsolute(inside) ? file : inside;
}
