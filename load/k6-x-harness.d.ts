/** The harness's own k6 extension (tools/k6/harness), present only in the k6 the harness builds. */
declare module "k6/x/harness" {
  /** Every later response of this VU fails once its body passes `maxBytes`; VU code only, not the init context. */
  export function capResponseBodies(maxBytes: number): void;
  /** The VU's number across every instance of the test, as k6/execution's `vu.idInTest`; VU code only. */
  export function vuIdInTest(): number;
}

/** k6's CommonJS require, available in the init context; used for a module only some k6 builds have. */
declare function require(id: "k6/x/harness"): Partial<typeof import("k6/x/harness")>;
/** k6/execution required as CommonJS: its default export, the object. */
declare function require(id: "k6/execution"): typeof import("k6/execution").default;
/** k6/encoding required as CommonJS: its named exports. */
declare function require(id: "k6/encoding"): typeof import("k6/encoding");
