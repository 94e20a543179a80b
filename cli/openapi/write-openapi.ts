import { rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { UsageError } from "../../core/index.ts";
import type { EventStrictness } from "../../domain/index.ts";
import { EVENT_STRICTNESS } from "../../domain/index.ts";
import type { OpenApiTargets } from "../../domain/openapi/index.ts";
import type { CommandIo } from "../command.ts";
import { ExitCode } from "../exit-codes.ts";
import { describeFileError } from "../file-error.ts";
import { makeDirectory } from "../make-directory.ts";
import type { OpenapiOptionValues } from "../options/openapi-options.ts";
import { addressOptions } from "../options/openapi-options.ts";
import { httpUrl } from "../options/target-options.ts";

const NAME = "openapi";

/** Same as the document's; repeated so the command's module does not load the builder before it runs. */
const EVENTS_PATH = "/events";

/** Path problems that mean "wrong --out", not a broken harness. */
const BAD_PATH = new Set([
  "EACCES",
  "EPERM",
  "EISDIR",
  "ENOTDIR",
  "ENOENT",
  "EROFS",
  "ENAMETOOLONG",
  "ELOOP",
]);

/** `event-harness openapi`: the OpenAPI document (or one standalone JSON Schema) on stdout or into a file. */
export async function writeOpenapi(options: OpenapiOptionValues, io: CommandIo): Promise<number> {
  const strictness = parseStrictness(options.strictness);
  const schema = parseSchemaName(options.schema);
  const targets = resolveAddresses(options, io.env);
  const text = `${JSON.stringify(await documentOrSchema(schema, strictness, targets), null, 2)}\n`;
  if (options.out === undefined || options.out === "-") {
    io.stdout.write(text);
    return ExitCode.ok;
  }
  const path = resolve(options.out);
  await writeAtomically(path, text);
  io.stderr.write(`event-harness ${NAME}: wrote ${options.out}\n`);
  return ExitCode.ok;
}

/** The schemas `--schema` writes on their own. */
const STANDALONE_SCHEMAS = ["event", "token-response"] as const;
type StandaloneSchema = (typeof STANDALONE_SCHEMAS)[number];

function parseSchemaName(raw: string | undefined): StandaloneSchema | undefined {
  if (raw === undefined) return undefined;
  if (!(STANDALONE_SCHEMAS as readonly string[]).includes(raw)) {
    throw new UsageError(
      "invalid-value",
      `--schema takes one of ${STANDALONE_SCHEMAS.join(", ")}, got '${raw}'`,
      NAME,
    );
  }
  return raw as StandaloneSchema;
}

/** The OpenAPI document, or one schema with its dialect named so a JSON Schema validator reads it alone. */
async function documentOrSchema(
  schema: StandaloneSchema | undefined,
  strictness: EventStrictness,
  targets: OpenApiTargets,
): Promise<unknown> {
  if (schema === undefined) {
    const { buildOpenApiDocument } = await import("../../domain/openapi/index.ts");
    return buildOpenApiDocument({ ...targets, strictness });
  }
  const { toJsonSchema } = await import("../../domain/index.ts");
  const name = schema === "event" && strictness !== "complete" ? (`event-${strictness}` as const) : schema;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...toJsonSchema(name, schema === "event" ? "input" : "output"),
  };
}

function parseStrictness(raw: string | undefined): EventStrictness {
  if (raw === undefined) return "production";
  if (!(EVENT_STRICTNESS as readonly string[]).includes(raw)) {
    throw new UsageError(
      "invalid-value",
      `--strictness takes one of ${EVENT_STRICTNESS.join(", ")}, got '${raw}'`,
      NAME,
    );
  }
  return raw as EventStrictness;
}

type AddressName = keyof typeof addressOptions;

/** Each address from its option or environment variable; user info is refused, since the document is a file to share. */
function resolveAddresses(
  options: Partial<Record<AddressName, string>>,
  env: NodeJS.ProcessEnv,
): OpenApiTargets {
  const pick = (name: AddressName): string | undefined => {
    const raw = (options[name] ?? env[addressOptions[name].env])?.trim();
    if (raw === undefined || raw === "") return undefined;
    const url = httpUrl(name, raw);
    if (new URL(url).username !== "" || new URL(url).password !== "") {
      throw new UsageError("invalid-config", `--${name} must not carry a user name or password`, NAME);
    }
    return url;
  };
  const authUrl = pick("auth-url");
  const tokenUrl = pick("token-url");
  if (authUrl !== undefined && tokenUrl !== undefined) {
    throw new UsageError(
      "invalid-config",
      "give either --auth-url (tokens from {auth-url}/oauth/token) or --token-url (the full token endpoint), not both",
      NAME,
    );
  }
  if (tokenUrl !== undefined && new URL(tokenUrl).pathname === EVENTS_PATH) {
    throw new UsageError(
      "invalid-config",
      `--token-url must not end in ${EVENTS_PATH}: that is the events path`,
      NAME,
    );
  }
  const baseUrl = pick("base-url");
  return {
    ...(authUrl === undefined ? {} : { authUrl }),
    ...(tokenUrl === undefined ? {} : { tokenUrl }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
  };
}

/** Writes beside the target and renames, so a reader never sees half a document. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    if ((await stat(path).catch(() => undefined))?.isDirectory()) {
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    }
    await makeDirectory(dirname(path));
    await writeFile(temporary, text, { flag: "wx" });
    await rename(temporary, path);
  } catch (error) {
    // Under a file the temporary cannot even be looked up: that ENOTDIR must not hide the one that says why.
    await rm(temporary, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (!BAD_PATH.has(code)) throw error;
    throw new UsageError("invalid-value", `--out cannot write ${path}: ${describeFileError(error)}`, NAME);
  }
}
