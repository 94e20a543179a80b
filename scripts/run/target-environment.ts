import { targetOptions } from "../cli/target-options.ts";

/** The target options the user gave, as the environment variables each part reads (so no secret is ever an argv). */
export function targetEnvironment(
  options: Readonly<Partial<Record<keyof typeof targetOptions, string>>>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(targetOptions) as Array<keyof typeof targetOptions>) {
    const spec = targetOptions[name];
    const value = options[name] ?? env[spec.env];
    if (typeof value === "string" && value.trim() !== "") out[spec.env] = value;
  }
  return out;
}
