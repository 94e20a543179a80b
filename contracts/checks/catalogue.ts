import { BEARER_CHECKS } from "./bearer-requirement.ts";
import type { CheckDefinition, Profile } from "./check.ts";
import { EVENT_CHECKS } from "./event-creation.ts";
import { PROPERTY_CHECKS } from "./property-checks.ts";
import { TOKEN_CHECKS } from "./token-issuance.ts";
import { LIFETIME_CHECKS } from "./token-lifetime.ts";

/** Every contract check, in the order they run and are reported. */
export const ALL_CHECKS: readonly CheckDefinition[] = [
  ...TOKEN_CHECKS,
  ...BEARER_CHECKS,
  ...EVENT_CHECKS,
  ...PROPERTY_CHECKS,
  ...LIFETIME_CHECKS,
];

/** The checks a profile runs, narrowed to `only` (ids or area prefixes such as `bearer`) when given. */
export function selectChecks(profile: Profile, only: readonly string[] = []): CheckDefinition[] {
  const inProfile = ALL_CHECKS.filter((check) => profile === "full" || check.profile === "fast");
  if (only.length === 0) return inProfile;
  return inProfile.filter((check) => only.some((want) => check.id === want || check.area === want));
}

/** Ids and areas `--only` accepts that match no check, so a typo is an error rather than an empty run. */
export function unknownSelectors(only: readonly string[]): string[] {
  return only.filter((want) => !ALL_CHECKS.some((check) => check.id === want || check.area === want));
}
