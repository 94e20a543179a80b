import { UsageError } from "../../core/index.ts";
import type { ClientCredential } from "../../load/index.ts";
import { readInputFile } from "../../transport/index.ts";

/** Reads a credentials file (`[{client_id, client_secret}, …]` or `{clients: […]}`); secrets are returned, never printed. */
export async function readCredentialsFile(file: string): Promise<ClientCredential[]> {
  const reading = await readInputFile(file);
  if (!reading.ok) {
    throw new UsageError(
      "invalid-config",
      `--credentials ${file} cannot be read: ${reading.problem}`,
      "load",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(reading.text);
  } catch {
    throw new UsageError("invalid-config", `--credentials ${file} is not valid JSON`, "load");
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { clients?: unknown } | null)?.clients;
  if (!Array.isArray(list) || list.length === 0) {
    throw new UsageError("invalid-config", `--credentials ${file} lists no clients`, "load");
  }
  return list.map((entry: unknown, index) => {
    const item = (entry ?? {}) as Record<string, unknown>;
    const clientId = item.client_id ?? item.clientId;
    const clientSecret = item.client_secret ?? item.clientSecret;
    if (
      typeof clientId !== "string" ||
      clientId === "" ||
      typeof clientSecret !== "string" ||
      clientSecret === ""
    ) {
      throw new UsageError(
        "invalid-config",
        `--credentials ${file}: entry ${index} needs client_id and client_secret`,
        "load",
      );
    }
    return { clientId, clientSecret };
  });
}
