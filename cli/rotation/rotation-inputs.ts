import { UsageError } from "../../core/index.ts";
import { MAX_TOKEN_CHARS, readInputFile } from "../../transport/index.ts";
import { OLD_SECRET_ENV, OLD_TOKEN_ENV } from "../options/rotation-options.ts";

/** What the user states about a rotation and what it takes to check it. */
export interface RotationInputs {
  readonly oldSecret?: string;
  readonly oldToken?: string;
  readonly expectOld?: string;
  readonly expectOldTokens?: string;
}

/**
 * An expectation without its input, or the old secret given as the new one, is a usage error: the check would
 * SKIP and the verdict pass unchecked, or the target would be blamed for the user's mix-up.
 */
export function checkRotationInputs(
  inputs: RotationInputs,
  newSecret: string,
  sources: { readonly oldSecret: string; readonly oldToken: string },
  command: string,
): void {
  const missing: string[] = [];
  if (inputs.expectOld !== undefined && inputs.oldSecret === undefined) {
    missing.push(
      `--expect-old ${inputs.expectOld} needs the secret from before the rotation (${sources.oldSecret})`,
    );
  }
  if (inputs.expectOldTokens !== undefined && inputs.oldToken === undefined) {
    missing.push(
      `--expect-old-tokens ${inputs.expectOldTokens} needs a token obtained before the rotation (${sources.oldToken})`,
    );
  }
  if (missing.length > 0) throw new UsageError("missing-argument", missing.join("; "), command);
  if (inputs.oldToken !== undefined && inputs.oldToken.length > MAX_TOKEN_CHARS) {
    throw new UsageError(
      "invalid-value",
      `the old token (${sources.oldToken}) has ${inputs.oldToken.length.toLocaleString("en-US")} characters, more than the ${MAX_TOKEN_CHARS.toLocaleString("en-US")} the harness can hide in its reports`,
      command,
    );
  }
  if (inputs.oldSecret !== undefined && inputs.oldSecret === newSecret) {
    throw new UsageError(
      "invalid-config",
      `the old secret (${sources.oldSecret}) is the same as the new one (EVENT_API_CLIENT_SECRET): give the secret from before the rotation as the old one and the rotated one as the new`,
      command,
    );
  }
}

/** One value from a file: a trailing line break (as `echo` or an editor leaves it) is not part of it. */
async function readValueFile(option: string, file: string, command: string): Promise<string> {
  const reading = await readInputFile(file);
  if (!reading.ok) {
    throw new UsageError("invalid-value", `--${option} ${file}: cannot read it: ${reading.problem}`, command);
  }
  const value = reading.text.replace(/\r?\n$/, "");
  if (value.trim() === "") throw new UsageError("invalid-value", `--${option} ${file} is empty`, command);
  return value;
}

/** The old secret and token from their file option or environment variable; both at once is ambiguous. */
export async function readRotationInputs(
  options: { readonly "old-secret-file"?: string; readonly "old-token-file"?: string },
  env: NodeJS.ProcessEnv,
  command: string,
): Promise<{ oldSecret?: string; oldToken?: string }> {
  const read = async (option: "old-secret-file" | "old-token-file", variable: string) => {
    const fromEnv = env[variable]?.trim() || undefined;
    const file = options[option];
    if (file === undefined) return fromEnv;
    if (fromEnv !== undefined) {
      throw new UsageError("invalid-config", `give --${option} or ${variable}, not both`, command);
    }
    return readValueFile(option, file, command);
  };
  const oldSecret = await read("old-secret-file", OLD_SECRET_ENV);
  const oldToken = await read("old-token-file", OLD_TOKEN_ENV);
  return {
    ...(oldSecret === undefined ? {} : { oldSecret }),
    ...(oldToken === undefined ? {} : { oldToken }),
  };
}
