/** The harness's own k6 extension (tools/k6/harness), present only in the k6 the harness builds. */
declare module "k6/x/harness" {
  /** Every later response of this VU fails once its body passes `maxBytes`; VU code only, not the init context. */
  export function capResponseBodies(maxBytes: number): void;
}

/** k6's CommonJS require, available in the init context; used for a module only some k6 builds have. */
declare function require(id: "k6/x/harness"): typeof import("k6/x/harness");
