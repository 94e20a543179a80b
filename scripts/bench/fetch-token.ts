import { request } from "undici";
import { readCappedText } from "../../transport/connection/index.ts";

/** Where a benchmark's sandbox listens and the client it uses. */
export interface BenchClient {
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** One access token for the benchmark's fixed-token baselines; any failure stops the benchmark. */
export async function fetchToken(client: BenchClient): Promise<string> {
  const response = await request(`${client.authUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_type: "client_credentials",
      audience: client.baseUrl,
    }).toString(),
  });
  const body = JSON.parse(await readCappedText(response.body)) as { access_token?: string };
  if (response.statusCode !== 200 || body.access_token === undefined) {
    throw new Error(`token request failed with ${response.statusCode}`);
  }
  return body.access_token;
}
