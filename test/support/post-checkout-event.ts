import { request } from "undici";

/** A served sandbox as its handoff names it: where to take a token, where events go, and the client to use. */
export interface ServedSandbox {
  readonly tokenUrl: string;
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/**
 * Takes a token as the client and posts one minimal checkout event with `reference`, as a user trying out a served
 * sandbox does; resolves to the event's status.
 */
export async function postCheckoutEvent(served: ServedSandbox, reference: string): Promise<number> {
  const grant = await request(served.tokenUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: served.clientId,
      client_secret: served.clientSecret,
    }).toString(),
  });
  const { access_token } = (await grant.body.json()) as { access_token: string };
  const posted = await request(`${served.baseUrl}/events`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
    body: JSON.stringify({
      type: "checkout",
      customer: { email: "a@example.com" },
      channel: { id: "chl-1" },
      transaction: { reference },
    }),
  });
  await posted.body.dump();
  return posted.statusCode;
}
