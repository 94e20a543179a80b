import type { CommandIo } from "./command.ts";
import { pick, tokenParamsOption } from "./options/target-options.ts";

/**
 * What the user set over what the harness would have done or found by itself, as every report of a run names it:
 * the config file's settings a flag or variable replaced, a binding --client-auth, each --token-param by its name
 * (a value may be a secret, so never the value) and --allow-latency-change.
 */
export function runOverrides(
  options: { readonly "client-auth"?: string; readonly "token-param"?: readonly string[] },
  io: Pick<CommandIo, "env" | "configOverrides">,
  extra: { readonly allowLatencyChange?: boolean } = {},
): string[] {
  return [
    ...(io.configOverrides ?? []),
    ...(pick(options, io.env, "client-auth") === undefined ? [] : ["--client-auth given (binding)"]),
    ...Object.keys(tokenParamsOption(options["token-param"], io.env) ?? {}).map(
      (name) => `--token-param ${name}`,
    ),
    ...(extra.allowLatencyChange === true ? ["--allow-latency-change"] : []),
  ];
}
