import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { onTestFinished, vi } from "vitest";
import { EVENT_TEMPLATE_FORMAT, LOAD_ENV, VU_BODY_CAP_ENV, WARM_UP_INDEX } from "../../../load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

// k6's modules exist only inside k6: stand-ins with what k6-vu.ts's init context touches.
const k6 = vi.hoisted(() => ({ post: vi.fn(), capResponseBodies: vi.fn() }));
vi.mock("k6/http", () => ({ default: { post: k6.post } }));
vi.mock("k6/data", () => ({
  SharedArray: class {
    constructor(_name: string, build: () => unknown[]) {
      // biome-ignore lint/correctness/noConstructorReturn: k6's SharedArray stands for the array its callback built.
      return build();
    }
  },
}));
vi.mock("k6/metrics", () => ({
  Counter: class {
    add(): void {}
  },
  Rate: class {
    add(): void {}
  },
}));

const SECRET = "vu-secret-value-3e1f";

/** What the test reads of the module: it runs only under k6's types, so not imported as a type here. */
interface K6Vu {
  readonly settings: Record<string, unknown>;
  readonly sendEvent: unknown;
}

let instance = 0;

/**
 * Runs k6-vu.ts's init context afresh with `env` as __ENV, `open` reading real files, and `require` answering
 * k6's modules; resolves to the module and the modules it required.
 */
async function initVu(env: Record<string, string>): Promise<{ vu: K6Vu; required: string[] }> {
  const required: string[] = [];
  vi.stubGlobal("__ENV", env);
  vi.stubGlobal("open", (file: string) => readFileSync(file, "utf8"));
  vi.stubGlobal("require", (name: string) => {
    required.push(name);
    if (name === "k6/execution") return { vu: { idInTest: 7 } };
    if (name === "k6/encoding") return { b64encode: (text: string) => Buffer.from(text).toString("base64") };
    if (name === "k6/x/harness") return { vuIdInTest: () => 7, capResponseBodies: k6.capResponseBodies };
    throw new Error(`no module ${name}`);
  });
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  // A query makes a module instance of its own, so each case runs the init context again.
  instance += 1;
  const specifier = `../../../load/lib/k6-vu.ts?case=${instance}`;
  const vu = (await import(/* @vite-ignore */ specifier)) as K6Vu;
  return { vu, required };
}

async function templatesFile(
  dir: string,
  content: unknown = { format: EVENT_TEMPLATE_FORMAT, templates: [{}] },
) {
  const file = path.join(dir, "templates.json");
  await writeFile(file, JSON.stringify(content));
  return file;
}

function settingsFor(dataFile: string, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    tokenUrl: "http://127.0.0.1:1/oauth/token",
    clientAuth: "post",
    eventsUrl: "http://127.0.0.1:1/events",
    runId: "run-1",
    dataFile,
    summaryFile: path.join(path.dirname(dataFile), "summary.json"),
    clientModel: "sliding",
    marginMs: 1000,
    timeoutMs: 5000,
    ...more,
  });
}

const CREDENTIALS = JSON.stringify([{ client_id: "c", client_secret: SECRET }]);

describe("k6-vu's init context", () => {
  it("stops with the variable it lacks when run without `event-harness load`", async () => {
    await expect(initVu({})).rejects.toThrow(
      `${LOAD_ENV.vu} is not set: run the scenario with \`event-harness load\`, which sets it`,
    );
    await expect(initVu({ [LOAD_ENV.vu]: "{}" })).rejects.toThrow(`${LOAD_ENV.credentials} is not set`);
  });

  it("loads the settings and the templates, requiring only what a form-posting client without a cap needs", async ({
    tmpDir,
  }) => {
    const dataFile = await templatesFile(tmpDir);
    const { vu, required } = await initVu({
      [LOAD_ENV.vu]: settingsFor(dataFile),
      [LOAD_ENV.credentials]: CREDENTIALS,
    });
    expect(vu.settings.dataFile).toBe(dataFile);
    expect(typeof vu.sendEvent).toBe("function");
    expect(required).toEqual(["k6/execution"]);
  });

  it("requires k6/encoding for HTTP Basic only, and k6/x/harness only when the harness set a body cap", async ({
    tmpDir,
  }) => {
    const dataFile = await templatesFile(tmpDir);
    const { required } = await initVu({
      [LOAD_ENV.vu]: settingsFor(dataFile, { clientAuth: "basic" }),
      [LOAD_ENV.credentials]: CREDENTIALS,
      [VU_BODY_CAP_ENV]: "1048576",
    });
    // The extension gives the VU's number too: k6/execution is not loaded.
    expect(required).toEqual(["k6/x/harness", "k6/encoding"]);
  });

  it("wires k6's own functions into the client: k6/http, k6/encoding's base64 and k6/x/harness's body cap", async ({
    tmpDir,
  }) => {
    const dataFile = await templatesFile(tmpDir);
    const { vu } = await initVu({
      [LOAD_ENV.vu]: settingsFor(dataFile, { clientAuth: "basic" }),
      [LOAD_ENV.credentials]: JSON.stringify([{ client_id: "harness client", client_secret: SECRET }]),
      [VU_BODY_CAP_ENV]: "1048576",
    });
    k6.post.mockReset().mockReturnValue({
      status: 200,
      body: JSON.stringify({ access_token: "token-1", token_type: "Bearer", expires_in: 300 }),
      timings: { duration: 5 },
    });
    k6.capResponseBodies.mockReset();
    // The warm-up's call: the VU's first token and no event.
    (vu.sendEvent as (iteration: number, index: number, newIteration: boolean, probe: boolean) => boolean)(
      0,
      WARM_UP_INDEX,
      true,
      false,
    );
    expect(k6.capResponseBodies.mock.calls).toEqual([[1048576]]);
    expect(k6.post).toHaveBeenCalledTimes(1);
    const [url, form, params] = k6.post.mock.calls[0] as [
      string,
      Record<string, string>,
      { headers: Record<string, string> },
    ];
    expect(url).toBe("http://127.0.0.1:1/oauth/token");
    expect(form).not.toHaveProperty("client_secret");
    const basic = params.headers.Authorization ?? "";
    expect(basic.startsWith("Basic ")).toBe(true);
    // RFC 6749 Appendix B: the id is form-encoded (a space as +) before the pair is base64-encoded.
    expect(Buffer.from(basic.slice(6), "base64").toString()).toBe(`harness+client:${SECRET}`);
  });

  it("refuses a data file that is not a templates file, or has no template", async ({ tmpDir }) => {
    for (const content of [
      { format: "other", templates: [{}] },
      { format: EVENT_TEMPLATE_FORMAT, templates: [] },
      {},
    ]) {
      const dataFile = await templatesFile(tmpDir, content);
      await expect(
        initVu({ [LOAD_ENV.vu]: settingsFor(dataFile), [LOAD_ENV.credentials]: CREDENTIALS }),
      ).rejects.toThrow(`${dataFile} is not an ${EVENT_TEMPLATE_FORMAT} file with templates`);
    }
  });

  it("takes token parameters with exactly the names the settings give", async ({ tmpDir }) => {
    const dataFile = await templatesFile(tmpDir);
    const { vu } = await initVu({
      [LOAD_ENV.vu]: settingsFor(dataFile, { tokenParamNames: ["api_key", "tenant"] }),
      [LOAD_ENV.credentials]: CREDENTIALS,
      [LOAD_ENV.tokenParams]: JSON.stringify({ tenant: "t1", api_key: SECRET }),
    });
    expect(vu.settings.tokenParamNames).toEqual(["api_key", "tenant"]);
  });

  it("refuses other token parameters, naming what it wants and what it got, never a value", async ({
    tmpDir,
  }) => {
    const dataFile = await templatesFile(tmpDir);
    const wants = 'the token parameters ["api_key"]';
    const cases: Array<[string | undefined, string]> = [
      [undefined, `${wants}; it is not set`],
      [`not json ${SECRET}`, `${wants}; it is not such an object`],
      [JSON.stringify([SECRET]), `${wants}; it is not such an object`],
      [JSON.stringify({ api_key: 42 }), `${wants}; it is not such an object`],
      [JSON.stringify({ other: SECRET }), `${wants}; it has ["other"]`],
      [JSON.stringify({ api_key: SECRET, extra: SECRET }), `${wants}; it has ["api_key","extra"]`],
    ];
    for (const [given, message] of cases) {
      const attempt = initVu({
        [LOAD_ENV.vu]: settingsFor(dataFile, { tokenParamNames: ["api_key"] }),
        [LOAD_ENV.credentials]: CREDENTIALS,
        ...(given === undefined ? {} : { [LOAD_ENV.tokenParams]: given }),
      });
      const error = await attempt.then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(error?.message, String(given)).toBe(
        `${LOAD_ENV.tokenParams} must be a JSON object of strings with exactly ${message}`,
      );
      expect(error?.message).not.toContain(SECRET);
    }
  });
});
