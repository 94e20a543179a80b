// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config file writes its secrets as ${VARIABLE} references
import { describe, expect, it } from "vitest";
import { SECRET_REFERENCE, UNBRACED_REFERENCE } from "../../../cli/config/config-keys.ts";
import type { ConfigKey } from "../../../cli/config/index.ts";
import { CONFIG_KEY_NAMES, CONFIG_KEYS } from "../../../cli/config/index.ts";

const accepts = (key: ConfigKey, value: unknown) => key.schema.safeParse(value).success;

describe("SECRET_REFERENCE", () => {
  it("is one whole ${VARIABLE} and nothing else", () => {
    for (const value of ["${STAGING_SECRET}", "${_A}", "${a1}"])
      expect(SECRET_REFERENCE.test(value), value).toBe(true);
    for (const value of [
      "literal-secret",
      "$STAGING_SECRET",
      "${1ST}",
      "${A-B}",
      "${}",
      " ${A}",
      "${A} ",
      "prefix${A}",
      "${A}${B}",
      "${A}\n",
    ]) {
      expect(SECRET_REFERENCE.test(value), JSON.stringify(value)).toBe(false);
    }
  });
});

describe("UNBRACED_REFERENCE", () => {
  it("is a shell-style $VARIABLE, bare or quoted alike, and not a braced one or a literal", () => {
    for (const value of ["$KEY", '"$KEY"', "'$KEY'", "  $KEY  "])
      expect(UNBRACED_REFERENCE.test(value), value).toBe(true);
    for (const value of ["${KEY}", "org_1", "$1", "\"$KEY'", "a$KEY", "$KEY-suffix"]) {
      expect(UNBRACED_REFERENCE.test(value), value).toBe(false);
    }
  });
});

describe("CONFIG_KEYS", () => {
  it("takes a client secret only as a reference, and says how to write one", () => {
    const key: ConfigKey = CONFIG_KEYS.clientSecret;
    expect(accepts(key, "${STAGING_SECRET}")).toBe(true);
    const refused = key.schema.safeParse("s3cr3t");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(
      'a secret is written as a reference to an environment variable, e.g. "${STAGING_SECRET}"',
    );
    expect(key.secret).toEqual({ form: "reference", what: "the client secret" });
  });

  it("takes token parameters as NAME=VALUE with braced references, and refuses a $VARIABLE that would be sent as it is", () => {
    const key: ConfigKey = CONFIG_KEYS.tokenParams;
    expect(accepts(key, ["organization=org_1", "api_key=${STAGING_KEY}", "empty="])).toBe(true);
    expect(accepts(key, [])).toBe(true);
    const noName = key.schema.safeParse(["=value"]);
    expect(noName.error?.issues[0]?.message).toBe("a token parameter is written NAME=VALUE");
    expect(accepts(key, ["no-equals"])).toBe(false);
    const unbraced = key.schema.safeParse(["ok=1", 'api_key="$STAGING_KEY"']);
    expect(unbraced.success).toBe(false);
    expect(unbraced.error?.issues[0]?.path).toEqual([1]);
    expect(unbraced.error?.issues[0]?.message).toMatch(
      /^a value taken from an environment variable is written with braces/,
    );
    // Only the value after the first "=" is judged: a name with a dollar is a literal name.
    expect(accepts(key, ["$name=1", "a=b=$C"])).toBe(true);
  });

  it("takes thresholds as NAME=EXPR, timeouts as positive seconds, and only the two profiles", () => {
    expect(accepts(CONFIG_KEYS.thresholds, ["http_req_duration{endpoint:events}=p(95)<300"])).toBe(true);
    expect(accepts(CONFIG_KEYS.thresholds, ["p(95)<300"])).toBe(false);
    expect(accepts(CONFIG_KEYS.timeout, 0.5)).toBe(true);
    for (const value of [0, -1, "10"]) expect(accepts(CONFIG_KEYS.timeout, value)).toBe(false);
    expect(accepts(CONFIG_KEYS.runTimeout, 0)).toBe(false);
    expect(accepts(CONFIG_KEYS.profile, "full")).toBe(true);
    expect(accepts(CONFIG_KEYS.profile, "slow")).toBe(false);
    expect(accepts(CONFIG_KEYS.baseline, ["a.json", "b"])).toBe(true);
    expect(accepts(CONFIG_KEYS.baseline, 1)).toBe(false);
  });

  it("lists every key once, each naming a flag, and marks exactly the secret-bearing keys", () => {
    expect(new Set(CONFIG_KEY_NAMES).size).toBe(CONFIG_KEY_NAMES.length);
    expect(CONFIG_KEY_NAMES).toEqual(Object.keys(CONFIG_KEYS));
    const flags = CONFIG_KEY_NAMES.map((name) => (CONFIG_KEYS[name] as ConfigKey).flag);
    expect(new Set(flags).size).toBe(flags.length);
    for (const flag of flags) expect(flag).toMatch(/^[a-z]+(-[a-z]+)*$/);
    const secret = CONFIG_KEY_NAMES.filter((name) => (CONFIG_KEYS[name] as ConfigKey).secret !== undefined);
    expect(secret).toEqual(["clientSecret", "tokenParams"]);
    const paths = CONFIG_KEY_NAMES.filter((name) => (CONFIG_KEYS[name] as ConfigKey).path === true);
    expect(paths).toEqual(["credentials", "accepted", "baseline"]);
  });
});
