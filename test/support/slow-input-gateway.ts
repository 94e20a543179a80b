import type { RunningSandbox } from "../../sandbox/index.ts";
import type { Interposition } from "./interposing-server.ts";
import { startInterposingServer } from "./interposing-server.ts";

export interface SlowInputGateway {
  /** The EVENT_API_* variables and the --audience that name the sandbox through the gateway. */
  readonly env: NodeJS.ProcessEnv;
  readonly audience: string;
  /** The property-based stage's inputs the gateway answered itself, events and token requests. */
  readonly answered: { events: number; tokens: number };
  close(): Promise<void>;
}

/**
 * A gateway in front of a correct sandbox that answers the property-based stage's inputs, and only them, with
 * `answer` (a 500 after a delay, as a gateway does when its backend hangs on unusual input; a 429), and passes every
 * other request on. Stage inputs: events whose reference carries the stage's stem, and, once those have begun, token
 * requests whose form differs from the first one the run sent (the checks before the stage send their odd forms
 * before it).
 */
export async function startSlowInputGateway(
  sandbox: RunningSandbox,
  answer: Exclude<Interposition, "reset" | undefined>,
): Promise<SlowInputGateway> {
  const answered = { events: 0, tokens: 0 };
  let stage = false;
  let firstTokenForm: string | undefined;
  const front = await startInterposingServer(
    new URL(sandbox.baseUrl).origin,
    (method, path, _headers, body) => {
      if (method !== "POST") return undefined;
      if (path.endsWith("/events") && body.includes("eah-fz-")) {
        stage = true;
        answered.events += 1;
        return answer;
      }
      if (path !== new URL(sandbox.tokenUrl).pathname) return undefined;
      firstTokenForm ??= body;
      if (!stage || body === firstTokenForm) return undefined;
      answered.tokens += 1;
      return answer;
    },
  );
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("the sandbox has no client");
  return {
    env: {
      EVENT_API_AUTH_URL: front.url(sandbox.authUrl),
      EVENT_API_BASE_URL: front.url(sandbox.baseUrl),
      EVENT_API_CLIENT_ID: client.clientId,
      EVENT_API_CLIENT_SECRET: client.clientSecret,
    },
    // The sandbox accepts only its own base URL as the audience, not the gateway's.
    audience: sandbox.baseUrl,
    answered,
    close: () => front.close(),
  };
}
