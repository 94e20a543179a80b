/** Option values as parsed by `parseCommandArgs`: a string, a list of them, or a flag. */
type OptionValue = string | readonly string[] | boolean;
export type OptionValues<O> = { readonly [K in keyof O]?: OptionValue };

/**
 * The argv that `parseCommandArgs` reads back into these values, in their order: the command line a value set
 * amounts to. A value starting with a dash is joined with `=`, which is the only way the parser takes it.
 */
export function argvOf<O extends OptionValues<O>>(values: O): string[] {
  const argv: string[] = [];
  for (const [name, value] of Object.entries(values) as Array<[string, OptionValue | undefined]>) {
    if (value === undefined || value === false) continue;
    if (value === true) {
      argv.push(`--${name}`);
      continue;
    }
    for (const item of typeof value === "string" ? [value] : value) {
      argv.push(...(item.startsWith("-") ? [`--${name}=${item}`] : [`--${name}`, item]));
    }
  }
  return argv;
}
