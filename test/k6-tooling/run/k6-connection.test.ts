import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DIRECT } from "../../../contracts/index.ts";
import { k6Connection } from "../../../k6-tooling/run/k6-connection.ts";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("k6Connection", () => {
  it("passes nothing for a direct connection, and keeps the user's own SSL_CERT_* settings", async () => {
    expect((await k6Connection(DIRECT, {})).env).toEqual({});
    expect((await k6Connection(DIRECT, { SSL_CERT_FILE: "/f.pem", SSL_CERT_DIR: "/d" })).env).toEqual({
      SSL_CERT_FILE: "/f.pem",
      SSL_CERT_DIR: "/d",
    });
  });

  it("gives k6 the proxy the Node side uses: HTTP_PROXY serves https too when HTTPS_PROXY is unset", async () => {
    const proxy = { httpProxy: "http://p:3128", httpsProxy: "", noProxy: ".internal" };
    expect((await k6Connection({ insecure: false, proxy }, {})).env).toEqual({
      HTTP_PROXY: "http://p:3128",
      HTTPS_PROXY: "http://p:3128",
      NO_PROXY: ".internal",
    });
  });

  it("adds the CA in a directory of its own after Go's default ones, so the system roots stay, and removes it", async () => {
    const caFile = path.join(tmpdir(), `eah-k6-ca-${process.pid}.pem`);
    await writeFile(caFile, PEM);
    const reach = await k6Connection({ insecure: false, caFile, proxy: DIRECT.proxy }, {});
    const dirs = (reach.env.SSL_CERT_DIR ?? "").split(":");
    expect(dirs.slice(0, 2)).toEqual(["/etc/ssl/certs", "/etc/pki/tls/certs"]);
    const added = dirs[2] ?? "";
    expect(await readdir(added)).toEqual(["extra-ca.pem"]);
    expect(await readFile(path.join(added, "extra-ca.pem"), "utf8")).toBe(PEM);
    expect(reach.env.SSL_CERT_FILE).toBeUndefined();
    await reach.dispose();
    await expect(stat(added)).rejects.toThrow();
    const own = await k6Connection(
      { insecure: false, caFile, proxy: DIRECT.proxy },
      { SSL_CERT_DIR: "/mine" },
    );
    expect(own.env.SSL_CERT_DIR?.startsWith("/mine:")).toBe(true);
    await own.dispose();
  });
});
