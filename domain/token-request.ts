import { z } from "zod";

/** The spec's token endpoint path under {auth_url}. */
export const SPEC_TOKEN_PATH = "/oauth/token";

/** The form body of `POST {auth_url}/oauth/token` (spec: Endpoints §1, "Form fields"). */
export const tokenRequestSchema = z.object({
  /** Spec: "client_id | string | <CLIENT_ID> of the API credentials". */
  client_id: z.string().min(1),
  /** Spec: "client_secret | string | <CLIENT_SECRET> of the API credentials". */
  client_secret: z.string().min(1),
  /** Spec: "grant_type | string | Must be client_credentials". */
  grant_type: z.literal("client_credentials"),
  /** Spec: "audience | string | The address of the API, {base_url}". */
  audience: z.string().min(1),
});

export type TokenRequest = z.infer<typeof tokenRequestSchema>;
