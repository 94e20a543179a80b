import { REFERENCE_STEM_SLOT } from "../../generators/index.ts";

/** The fixed valid event every input class's cover writes, spelled out by hand so no test reads it from the generator. */
export const COVER_EVENT = {
  type: "checkout",
  customer: { email: "customer@example.com" },
  channel: { id: "chl-harness-cover" },
  transaction: { reference: `${REFERENCE_STEM_SLOT}cover`, date: "2026-01-02T03:04:05.678Z" },
  system: "shop-backend",
  systemVersion: "1.0.0",
};
