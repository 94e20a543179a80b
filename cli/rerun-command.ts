import type { Target } from "../transport/index.ts";
import { displayPath } from "./display-path.ts";
import type { ConfigSource } from "./options/config-options.ts";
import { DEFAULT_TIMEOUT_SECONDS } from "./options/target-options.ts";

/** How a word reads back in a POSIX shell: bare when it holds nothing the shell would act on, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w./=:,@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The flags that name a resolved target on a command line, each setting a rerun would otherwise default
 * differently. Never its secret: the command reads it from the same environment (a placeholder would test a wrong
 * one). Token parameters are left out too, since their values may be secret: a rerun takes them from
 * EVENT_API_TOKEN_PARAMS or the config file, as the run did.
 */
export function targetFlags(external: Target): string[] {
  const audience =
    external.audience === undefined
      ? "none"
      : external.audience === external.baseUrl
        ? undefined
        : external.audience;
  return [
    "--token-url",
    external.tokenUrl,
    "--base-url",
    external.baseUrl,
    "--client-id",
    external.clientId,
    // A given method is binding: left out, the command run by hand would default it and might switch it.
    ...(external.clientAuth === "post" && external.clientAuthGiven !== true
      ? []
      : ["--client-auth", external.clientAuth]),
    ...(external.scope === undefined ? [] : ["--scope", external.scope]),
    ...(audience === undefined ? [] : ["--audience", audience]),
    ...(external.resource === undefined ? [] : ["--resource", external.resource]),
    ...(external.channelId === undefined ? [] : ["--channel-id", external.channelId]),
    ...(external.timeoutMs === DEFAULT_TIMEOUT_SECONDS * 1000
      ? []
      : ["--timeout", String(external.timeoutMs / 1000)]),
    ...(external.connection.insecure ? ["--insecure"] : []),
  ];
}

/**
 * The command line that repeats a command where it ran, as printed and pasted: `words` (the command and its own
 * options), the config file and environment it took, and the target's flags. It names no report directory, so each
 * rerun writes a fresh one of its own.
 */
export function rerunCommand(
  words: readonly string[],
  external: Target | undefined,
  config: ConfigSource | undefined,
): string {
  // The file resolves its own secret references, so the command runs where the run ran.
  const fromFile =
    config === undefined ? [] : ["--config", displayPath(config.file), "--environment", config.environment];
  const all = [...words, ...fromFile, ...(external === undefined ? [] : targetFlags(external))];
  return `npx --no-install event-harness ${all.map(shellWord).join(" ")}`;
}
