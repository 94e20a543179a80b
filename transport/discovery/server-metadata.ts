import { z } from "zod";

/** RFC 8414 §2's fields the harness reads; everything else a server publishes is ignored. */
export const serverMetadataSchema = z.looseObject({
  issuer: z.string().min(1),
  token_endpoint: z.url({ protocol: /^https?$/ }),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  // RFC 7662's endpoint is optional help (verify-rotation asks it about old tokens): one that is not a URL is ignored.
  introspection_endpoint: z
    .url({ protocol: /^https?$/ })
    .optional()
    .catch(undefined),
});

export type ServerMetadata = z.infer<typeof serverMetadataSchema>;

/** RFC 8414 §2: a server that lists no methods supports client_secret_basic only. */
export const DEFAULT_AUTH_METHODS: readonly string[] = ["client_secret_basic"];

/** An issuer compared as RFC 8414 §3.3 asks (identical), except that a trailing slash is no difference. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}
