import { targetOptions } from "../options/target-options.ts";

/** The target options the user gave, as the environment variables each part reads (so no secret is ever an argv). */
export function targetEnvironment(
  options: Readonly<Partial<Record<keyof typeof targetOptions, string | boolean | readonly string[]>>>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(targetOptions) as Array<keyof typeof targetOptions>) {
    const spec = targetOptions[name];
    const given = options[name];
    // A repeatable option travels as one line per value.
    const value = Array.isArray(given)
      ? given.join("\n")
      : given === true
        ? "1"
        : given === false
          ? undefined
          : (given ?? env[spec.env]);
    if (typeof value === "string" && value.trim() !== "") out[spec.env] = value;
  }
  return out;
}
