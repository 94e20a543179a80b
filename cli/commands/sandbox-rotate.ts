import { defineCommand, delegateTo } from "../command.ts";
import {
  ADMIN_TOKEN_ENV,
  CURRENT_SECRET_ENV,
  sandboxRotateOptions,
} from "../options/sandbox-rotate-options.ts";

export const sandboxRotateCommand = defineCommand({
  name: "sandbox-rotate",
  summary: "Rotate a client secret of a running sandbox through its admin endpoint",
  usage:
    "sandbox-rotate --auth-url URL --client-id ID [--overlap S] [--revoke] [--timeout S] [--insecure] [--config FILE [--environment NAME]] (--secret-file FILE | --show-secret)",
  description: [
    "Calls POST {auth-url}/admin/clients/{client-id}/rotate of a sandbox started with `event-harness sandbox`.",
    `The admin token is read from ${ADMIN_TOKEN_ENV} only (flags end up in shell history and ps).`,
    "The new secret must go somewhere, or the client would be locked out: --secret-file FILE writes it to FILE",
    "(created with mode 0600, replaced atomically, no trailing newline; checked before anything is rotated), or",
    "--show-secret prints it, alone, on stdout (the summary then goes to stderr) for a pipe into a secret store.",
    "Without --overlap the old secret is refused at once; without --revoke tokens issued before stay valid.",
    `With the current secret in ${CURRENT_SECRET_ENV} and --secret-file FILE, a token is taken with it first (a`,
    "secret the sandbox refuses is exit 2, nothing rotated), and both are kept for verification in FILE.old-secret",
    "and FILE.old-token (mode 0600): the printed `Verify with:` command reads them and checks the old secret and",
    "earlier tokens against what the rotation did. It never carries a secret and runs as printed.",
    "The sandbox is reached as every command reaches a target: the CA in NODE_EXTRA_CA_CERTS is trusted (an https",
    "sandbox started with --tls-cert), HTTPS_PROXY/HTTP_PROXY/NO_PROXY apply, and --insecure skips verification.",
    "Exit codes: 0 rotated, 2 usage or configuration error (also a refused admin token or an unknown client),",
    "3 the rotation could not be made or confirmed (sandbox unreachable, untrusted certificate, dead proxy, an",
    "answer that is not a rotation: checked before anything is written or printed), or a file could not be written",
    "after it (the message says what was rotated and where the new secret is).",
  ].join("\n"),
  options: sandboxRotateOptions,
  examples: [
    "event-harness sandbox-rotate --auth-url http://127.0.0.1:8080/auth --client-id sandbox-demo --secret-file new.secret",
    "event-harness sandbox-rotate --auth-url http://127.0.0.1:8080/auth --client-id sandbox-demo --overlap 60 --revoke --show-secret",
    "NODE_EXTRA_CA_CERTS=ca.pem event-harness sandbox-rotate --auth-url https://sandbox.internal:8443/auth --client-id sandbox-demo --secret-file new.secret",
    "EVENT_API_CLIENT_SECRET=sandbox-demo-secret event-harness sandbox-rotate --auth-url http://127.0.0.1:8080/auth --client-id sandbox-demo --secret-file new.secret   # keeps the old secret and a token to verify with",
  ],
  // The machinery (undici, the transport) loads only when the command runs.
  run: delegateTo(async () => (await import("../rotation/index.ts")).rotateSandboxSecret),
});
