import type { Target } from "../../contracts/index.ts";
import { Redactor } from "../../contracts/index.ts";

/** Every secret the run knows of, so its console and files can be scrubbed whatever a part prints. */
export function runRedactor(
  external: Target | undefined,
  demo: { readonly clientId: string; readonly clientSecret: string },
  env: NodeJS.ProcessEnv,
): Redactor {
  const redactor = new Redactor();
  const clientId = external?.clientId ?? demo.clientId;
  const secrets: Array<[string | undefined, string]> = [
    [external?.clientSecret.reveal() ?? demo.clientSecret, "<CLIENT_SECRET>"],
    [env.EVENT_API_OLD_CLIENT_SECRET?.trim(), "<CLIENT_SECRET>"],
    [env.EVENT_API_OLD_ACCESS_TOKEN?.trim(), "<OLD_ACCESS_TOKEN>"],
  ];
  for (const [value, placeholder] of secrets) {
    if (value) redactor.add(value, placeholder).addBasic(clientId, value);
  }
  return redactor;
}
