import type { Target } from "../../contracts/index.ts";
import { Redactor } from "../../contracts/index.ts";
import { UsageError } from "../../core/index.ts";

/** Every secret the run knows of, so its console and files can be scrubbed whatever a part prints. */
export function runRedactor(
  external: Target | undefined,
  demo: { readonly clientId: string; readonly clientSecret: string },
  env: NodeJS.ProcessEnv,
): Redactor {
  const redactor = new Redactor();
  const clientId = external?.clientId ?? demo.clientId;
  for (const secret of [
    external?.clientSecret.reveal() ?? demo.clientSecret,
    env.EVENT_API_OLD_CLIENT_SECRET?.trim(),
  ]) {
    if (secret) redactor.add(secret, "<CLIENT_SECRET>").addBasic(clientId, secret);
  }
  redactor.addTokenParams(external?.tokenParams);
  const oldToken = env.EVENT_API_OLD_ACCESS_TOKEN?.trim();
  const refusal = oldToken ? redactor.tokenRefusal(oldToken) : undefined;
  // A token the run could not hide is a mistake to say before anything runs, whichever parts run.
  if (refusal !== undefined)
    throw new UsageError("invalid-value", `EVENT_API_OLD_ACCESS_TOKEN ${refusal}`, "run");
  if (oldToken) redactor.addToken(oldToken, "<OLD_ACCESS_TOKEN>");
  return redactor;
}
