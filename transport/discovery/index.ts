export type { DiscoveredServer, DiscoveryRequest } from "./discover.ts";
export { DiscoveryError, discoverServer, discoverTokenEndpoint } from "./discover.ts";
export { issuerCandidates, metadataUrls } from "./metadata-urls.ts";
