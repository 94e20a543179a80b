import type { ValidateFunction } from "ajv/dist/2020.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_STRICTNESS } from "../../../domain/index.ts";
import type { OpenApiDocument } from "../../../domain/openapi/index.ts";
import { buildOpenApiDocument } from "../../../domain/openapi/index.ts";
import type { TestSandbox } from "../../sandbox/support.ts";
import { startTestSandbox } from "../../sandbox/support.ts";
import { arbitraryOf } from "../../support/json-schema-arbitrary.ts";

/** Every node of a JSON value with its JSON Pointer-like path. */
function* nodes(value: unknown, path = "#"): Generator<[string, Record<string, unknown>]> {
  if (value === null || typeof value !== "object") return;
  if (!Array.isArray(value)) yield [path, value as Record<string, unknown>];
  for (const [key, child] of Object.entries(value)) yield* nodes(child, `${path}/${key}`);
}

function eventSchema(document: OpenApiDocument): Record<string, unknown> {
  const schema = document.components.schemas.Event;
  if (schema === undefined) throw new Error("no Event schema");
  return schema;
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  return new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(schema);
}

describe("OpenAPI export: constraints a generator can satisfy", () => {
  const documents = EVENT_STRICTNESS.map((strictness) => buildOpenApiDocument({ strictness }));

  it("writes ASCII digits as [0-9]: no pattern uses \\d, which matches other digits in several engines", () => {
    for (const document of documents) {
      for (const [path, node] of nodes(document)) {
        if (typeof node.pattern === "string") expect(node.pattern, path).not.toMatch(/\\d/);
      }
    }
  });

  it("gives each string one constraint: never a format beside a pattern", () => {
    for (const document of documents) {
      for (const [path, node] of nodes(document)) {
        if (node.pattern !== undefined) expect(node.format, path).toBeUndefined();
      }
    }
    type Node = { properties: Record<string, Node> };
    const event = eventSchema(documents[0] as OpenApiDocument) as unknown as Node;
    const date = event.properties.transaction?.properties.date;
    expect(Object.keys(date ?? {}).sort()).toEqual(["description", "pattern", "type"]);
  });

  it('says "no constraint" on additional properties plainly: true, never {}', () => {
    for (const document of documents) {
      for (const [path, node] of nodes(document.components.schemas)) {
        if ("additionalProperties" in node) expect(node.additionalProperties, path).toBe(true);
      }
    }
  });

  it("tells tools that take one base URL how to test the token endpoint with its own", () => {
    const document = buildOpenApiDocument();
    const servers = document.paths["/oauth/token"]?.servers as Array<{ description: string }> | undefined;
    const tokenServer = servers?.[0];
    expect(tokenServer?.description).toMatch(/one base URL/);
    expect(tokenServer?.description).toMatch(/requestAccessToken/);
    expect(String((document.info as { description: string }).description)).toMatch(
      /--include-operation-id createEvent/,
    );
  });
});

describe("OpenAPI export: events drawn from it by an independent generator are accepted by the sandbox", () => {
  const sandboxes = new Map<string, TestSandbox>();
  beforeAll(async () => {
    for (const strictness of EVENT_STRICTNESS)
      sandboxes.set(strictness, await startTestSandbox({ eventStrictness: strictness }));
  });
  afterAll(async () => {
    for (const t of sandboxes.values()) await t.sandbox.close();
  });

  it.each(EVENT_STRICTNESS)("%s: every generated event validates and is answered 202", async (strictness) => {
    const t = sandboxes.get(strictness) as TestSandbox;
    const schema = eventSchema(buildOpenApiDocument({ strictness }));
    const validate = compile(schema);
    const token = await t.token();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryOf(schema), async (event) => {
        expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
        // References must be unique (production): a counter in front keeps the generated one (any string) intact.
        const body = event as { transaction?: { reference?: unknown } };
        if (typeof body.transaction?.reference === "string") {
          sent += 1;
          body.transaction.reference = `gen-${strictness}-${sent}-${body.transaction.reference}`;
        }
        const answer = await t.postEvent(token, body);
        expect(answer.status, `${answer.text} for ${JSON.stringify(body)}`).toBe(202);
      }),
      { numRuns: 200, seed: 37 },
    );
  });
});
