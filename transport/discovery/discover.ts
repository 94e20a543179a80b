import { request } from "undici";
import { ResponseTooLargeError } from "../../core/index.ts";
import type { Connection } from "../connection/index.ts";
import {
  BodyCap,
  describeConnectionFailure,
  describeRedirect,
  isRedirect,
  readCappedText,
  undiciDispatcher,
} from "../connection/index.ts";
import { requestDeadline } from "../deadline/index.ts";
import { inertText } from "../untrusted-text.ts";
import { issuerCandidates, metadataUrls } from "./metadata-urls.ts";
import { DEFAULT_AUTH_METHODS, sameIssuer, serverMetadataSchema } from "./server-metadata.ts";

/** Metadata documents are a few KiB: more is not metadata. */
const MAX_METADATA_BYTES = 64 * 1024;

export interface DiscoveryRequest {
  readonly connection: Connection;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/** What an issuer's metadata says about getting a token. */
export interface DiscoveredServer {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** token_endpoint_auth_methods_supported, or RFC 8414's default when absent. */
  readonly authMethods: readonly string[];
  /** RFC 7662's introspection endpoint, when the metadata names one. */
  readonly introspectionEndpoint?: string;
  /** The document it came from. */
  readonly metadataUrl: string;
}

/** No usable metadata: `reachable` is false when no request got an answer at all (network, TLS, deadline). */
export class DiscoveryError extends Error {
  override readonly name = "DiscoveryError";
  constructor(
    readonly issuer: string,
    /** What each metadata URL answered, or why it did not. */
    readonly reasons: string,
    readonly reachable: boolean,
  ) {
    super(`no metadata for the issuer ${issuer}: ${reasons}`);
  }
}

type Attempt = { readonly found: DiscoveredServer } | { readonly answered: boolean; readonly reason: string };

/** GETs one metadata document: no redirect followed, one deadline, a small cap; target text made inert. */
async function fetchMetadata(issuer: string, url: string, how: DiscoveryRequest): Promise<Attempt> {
  const deadline = requestDeadline(how.timeoutMs, how.signal);
  let status: number;
  let text: string;
  let location: string | string[] | undefined;
  try {
    // undici's request() follows no redirect.
    const response = await request(url, {
      method: "GET",
      headers: { accept: "application/json" },
      signal: deadline.signal,
      dispatcher: await undiciDispatcher(how.connection),
    });
    status = response.statusCode;
    location = response.headers.location;
    text = await readCappedText(response.body, new BodyCap(MAX_METADATA_BYTES));
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const reason =
      deadline.cutShort()?.message ??
      (describeConnectionFailure(error) ?? describeConnectionFailure(cause))?.message ??
      (error instanceof Error ? error.message : String(error));
    // A body past the cap is an answer, just not metadata; anything else means no answer came.
    return { answered: error instanceof ResponseTooLargeError, reason: inertText(reason) };
  } finally {
    deadline.dispose();
  }
  if (isRedirect(status)) return { answered: true, reason: describeRedirect(status, location, url) };
  if (status !== 200) return { answered: true, reason: `answered ${status}` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { answered: true, reason: "answered 200 with a body that is not JSON" };
  }
  const parsed = serverMetadataSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "(document)"}: ${issue.message}`,
    );
    return {
      answered: true,
      reason: inertText(`answered metadata that is not valid (${fields.join("; ")})`),
    };
  }
  const metadata = parsed.data;
  if (!sameIssuer(metadata.issuer, issuer)) {
    return {
      answered: true,
      reason: inertText(`answered metadata of another issuer ('${metadata.issuer.slice(0, 200)}')`),
    };
  }
  return {
    found: {
      issuer,
      tokenEndpoint: metadata.token_endpoint,
      authMethods: metadata.token_endpoint_auth_methods_supported ?? DEFAULT_AUTH_METHODS,
      ...(metadata.introspection_endpoint === undefined
        ? {}
        : { introspectionEndpoint: metadata.introspection_endpoint }),
      metadataUrl: url,
    },
  };
}

/**
 * Reads `issuer`'s metadata (OpenID Connect Discovery, then RFC 8414); throws DiscoveryError saying what each
 * document's URL answered when neither gives valid metadata of this very issuer.
 */
export async function discoverServer(issuer: string, how: DiscoveryRequest): Promise<DiscoveredServer> {
  const reasons: string[] = [];
  let answered = false;
  for (const url of metadataUrls(issuer)) {
    const attempt = await fetchMetadata(issuer, url, how);
    if ("found" in attempt) return attempt.found;
    answered ||= attempt.answered;
    reasons.push(`${url} ${attempt.reason}`);
  }
  throw new DiscoveryError(issuer, reasons.join("; "), answered);
}

/**
 * The token endpoint a server publishes for `url` (an issuer, or any address on the server such as a wrong
 * --auth-url): tries the URL and its shorter paths as issuers; undefined when none has metadata. Never throws.
 */
export async function discoverTokenEndpoint(url: string, how: DiscoveryRequest): Promise<string | undefined> {
  for (const candidate of issuerCandidates(url)) {
    if (how.signal?.aborted) return undefined;
    try {
      return (await discoverServer(candidate, how)).tokenEndpoint;
    } catch (error) {
      // An origin that does not answer at all will not answer for a shorter path either.
      if (!(error instanceof DiscoveryError) || !error.reachable) return undefined;
    }
  }
  return undefined;
}
