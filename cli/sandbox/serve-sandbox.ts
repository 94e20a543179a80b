import { dirname } from "node:path";
import { UsageError } from "../../core/index.ts";
import type { ClientCredentials, FaultName, RunningSandbox } from "../../sandbox/index.ts";
import {
  checkAdminToken,
  checkTokenPath,
  DEMO_CLIENT,
  FAULTS,
  isFaultName,
  SANDBOX_DEFAULTS,
  startSandbox,
} from "../../sandbox/index.ts";
import { readInputFile } from "../../transport/index.ts";
import type { CommandIo } from "../command.ts";
import { didYouMean } from "../did-you-mean.ts";
import { ExitCode } from "../exit-codes.ts";
import { parseChoice, parseInteger, parseNumber } from "../options/parse-option-value.ts";
import type { SandboxOptionValues } from "../options/sandbox-options.ts";
import { sandboxOptions } from "../options/sandbox-options.ts";
import { prepareWritableDir } from "../writable-dir.ts";

const STRICTNESS = ["production", "complete", "lenient"] as const;
function parseClient(raw: string): ClientCredentials {
  const colon = raw.indexOf(":");
  const clientId = colon === -1 ? "" : raw.slice(0, colon);
  const clientSecret = colon === -1 ? "" : raw.slice(colon + 1);
  if (clientId === "" || clientSecret === "") {
    throw new UsageError("invalid-value", "--client takes ID:SECRET with both parts non-empty", "sandbox");
  }
  return { clientId, clientSecret };
}

function parseClients(raw: readonly string[] | undefined): ClientCredentials[] | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  const clients = raw.map(parseClient);
  const ids = clients.map((client) => client.clientId);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) {
    throw new UsageError("invalid-value", `--client ${repeated} is given twice`, "sandbox");
  }
  return clients;
}

function parseFaults(raw: readonly string[] | undefined): FaultName[] {
  const faults: FaultName[] = [];
  for (const name of raw ?? []) {
    if (!isFaultName(name)) {
      throw new UsageError(
        "invalid-value",
        `unknown fault '${name}'${didYouMean(
          name,
          FAULTS.map((fault) => fault.name),
        )}; valid faults: ${FAULTS.map((fault) => fault.name).join(", ")}`,
        "sandbox",
      );
    }
    if (!faults.includes(name)) faults.push(name);
  }
  return faults;
}

/** The admin token given by flag or environment, checked here so a bad one is a usage error (exit 2). */
function adminTokenOption(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  try {
    return checkAdminToken(raw.trim());
  } catch (error) {
    throw new UsageError("invalid-value", `--admin-token: ${(error as Error).message}`, "sandbox");
  }
}

/** A token path the sandbox can serve, checked before it starts. */
function tokenPathOption(raw: string): string {
  try {
    checkTokenPath(raw);
  } catch (error) {
    throw new UsageError("invalid-value", `--token-path: ${(error as Error).message}`, "sandbox");
  }
  return raw;
}

/** Reads the PEM files of --tls-cert and --tls-key; one without the other is a usage error. */
async function tlsFiles(
  certFile: string | undefined,
  keyFile: string | undefined,
): Promise<{ cert: string; key: string } | undefined> {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new UsageError("invalid-config", "--tls-cert and --tls-key go together", "sandbox");
  }
  const read = async (name: string, file: string) => {
    const reading = await readInputFile(file);
    if (!reading.ok)
      throw new UsageError("invalid-value", `--${name} ${file}: ${reading.problem}`, "sandbox");
    return reading.text;
  };
  return { cert: await read("tls-cert", certFile), key: await read("tls-key", keyFile) };
}

function isDemoClient(client: ClientCredentials): boolean {
  return client.clientId === DEMO_CLIENT.clientId && client.clientSecret === DEMO_CLIENT.clientSecret;
}

/** The human-readable start banner; only throwaway credentials (demo secret, random admin token) are shown. */
function describe(
  sandbox: RunningSandbox,
  adminTokenGiven: boolean,
  throughput: { readonly limit: number; readonly queueMs: number } | undefined,
): string {
  const lines = [
    "Event API sandbox is running.",
    sandbox.tokenUrl === `${sandbox.authUrl}/oauth/token`
      ? `  Token endpoint  ${sandbox.tokenUrl}   (auth URL ${sandbox.authUrl})`
      : `  Token endpoint  ${sandbox.tokenUrl}   (give it as --token-url)`,
    `  Events          ${sandbox.baseUrl}/events        (base URL ${sandbox.baseUrl})`,
    `  Issuer          ${sandbox.authUrl}   (metadata at {issuer}/.well-known/openid-configuration: give it as --issuer)`,
    `  JWKS            ${sandbox.jwksUrl}`,
    `  expires_in      ${sandbox.expiresIn} s, counted from the token's last use`,
    ...(throughput === undefined
      ? []
      : [
          `  Throughput      at most ${throughput.limit} events/s; an event that would wait over ${throughput.queueMs} ms is refused (503)`,
        ]),
  ];
  for (const client of sandbox.clients) {
    lines.push(
      isDemoClient(client)
        ? `  Client          ${client.clientId} / ${client.clientSecret}  (throwaway demo credential of this local sandbox)`
        : `  Client          ${client.clientId} (secret as given, not shown)`,
    );
  }
  lines.push(
    `  Admin           POST ${sandbox.authUrl}/admin/clients/{client_id}/rotate  (rotates a secret; see sandbox-rotate)`,
    adminTokenGiven
      ? "  Admin token     as given (not shown)"
      : `  Admin token     ${sandbox.adminToken}  (throwaway credential of this local sandbox)`,
  );
  if (sandbox.faults.length === 0) lines.push("  Faults          none");
  for (const name of sandbox.faults) {
    const info = FAULTS.find((fault) => fault.name === name);
    lines.push(`  Fault           ${name}: ${info?.description ?? ""}`);
  }
  lines.push("Stop with Ctrl+C.", "");
  return lines.join("\n");
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** The journal's folder, made and tried before the sandbox listens: a journal that cannot be written is exit 2. */
async function journalDir(journal: string): Promise<void> {
  await prepareWritableDir(dirname(journal), "the folder of --journal", "sandbox");
}

/**
 * `event-harness sandbox`: reads and checks the options, starts the sandbox, says where it listens (or hands every
 * credential over as one JSON line) and serves until SIGINT or SIGTERM.
 */
export async function serveSandbox(options: SandboxOptionValues, io: CommandIo): Promise<number> {
  const host = options.host ?? SANDBOX_DEFAULTS.host;
  if (host.trim() === "") throw new UsageError("invalid-value", "--host must not be empty", "sandbox");
  const clients = parseClients(options.client);
  const adminToken = adminTokenOption(options["admin-token"] ?? io.env.EVENT_HARNESS_ADMIN_TOKEN);
  const tls = await tlsFiles(options["tls-cert"], options["tls-key"]);
  if (options.journal !== undefined) await journalDir(options.journal);
  if (options["queue-limit"] !== undefined && options["throughput-limit"] === undefined) {
    throw new UsageError("invalid-config", "--queue-limit applies only with --throughput-limit", "sandbox");
  }
  const throughput =
    options["throughput-limit"] === undefined
      ? undefined
      : {
          limit: parseInteger("throughput-limit", options["throughput-limit"], {
            ...sandboxOptions["throughput-limit"].range,
            fallback: 1,
          }),
          queueMs: parseInteger("queue-limit", options["queue-limit"], {
            ...sandboxOptions["queue-limit"].range,
            fallback: SANDBOX_DEFAULTS.queueLimitMs,
          }),
        };
  const sandbox = await startSandbox({
    ...(options["token-path"] === undefined ? {} : { tokenPath: tokenPathOption(options["token-path"]) }),
    ...(tls === undefined ? {} : { tls }),
    host,
    port: parseInteger("port", options.port, {
      ...sandboxOptions.port.range,
      fallback: SANDBOX_DEFAULTS.port,
    }),
    expiresIn: parseInteger("expires-in", options["expires-in"], {
      ...sandboxOptions["expires-in"].range,
      fallback: SANDBOX_DEFAULTS.expiresIn,
    }),
    latencyMs: parseInteger("latency", options.latency, { ...sandboxOptions.latency.range, fallback: 0 }),
    ...(throughput === undefined
      ? {}
      : { throughputLimit: throughput.limit, queueLimitMs: throughput.queueMs }),
    faults: parseFaults(options.fault),
    faultRate: parseNumber("fault-rate", options["fault-rate"], {
      ...sandboxOptions["fault-rate"].range,
      fallback: SANDBOX_DEFAULTS.faultRate,
    }),
    faultSeed: parseInteger("fault-seed", options["fault-seed"], {
      ...sandboxOptions["fault-seed"].range,
      fallback: SANDBOX_DEFAULTS.faultSeed,
    }),
    eventStrictness: parseChoice("strictness", options.strictness, STRICTNESS, "production"),
    ...(clients === undefined ? {} : { clients }),
    ...(options.journal === undefined ? {} : { journalPath: options.journal }),
    ...(adminToken === undefined ? {} : { adminToken }),
  });
  try {
    if (options.json) {
      const clientList = sandbox.clients.map((client) => ({
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }));
      io.stdout.write(
        `${JSON.stringify({
          auth_url: sandbox.authUrl,
          token_url: sandbox.tokenUrl,
          base_url: sandbox.baseUrl,
          clients: clientList,
          admin_token: sandbox.adminToken,
        })}\n`,
      );
    } else {
      io.stdout.write(describe(sandbox, adminToken !== undefined, throughput));
    }
    if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
      io.stderr.write(`event-harness: note: listening on ${host}, not only on loopback.\n`);
    }
    await aborted(io.signal);
  } finally {
    await sandbox.close();
  }
  if (!options.json) io.stdout.write("Sandbox stopped.\n");
  return ExitCode.ok;
}
