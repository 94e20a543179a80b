// The layers of CONTRIBUTING.md, enforced by `npm run check` (dependency-cruiser): no import circle, no import that
// goes up a layer, the capabilities unaware of each other, other folders reached only through their index.ts,
// nothing shipped importing scripts/.
// There is no baseline of known violations: every violation fails the check.
const CAPABILITIES = "generators|sandbox|contracts|load";
const SHIPPED = "core|domain|transport|generators|sandbox|contracts|load|k6-tooling|reporting|cli|bin";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Files that import each other in a loop (type-only and dynamic imports count).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-is-the-floor",
      comment:
        "core/ (errors with their codes, durations) imports no other folder: every layer may import it.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: `^(domain|transport|${CAPABILITIES}|k6-tooling|reporting|cli|bin|scripts)/` },
    },
    {
      name: "domain-is-the-ground",
      comment: "domain/ (the API's model) imports no other layer.",
      severity: "error",
      from: { path: "^domain/" },
      to: { path: `^(transport|${CAPABILITIES}|k6-tooling|reporting|cli|bin|scripts)/` },
    },
    {
      name: "transport-below-capabilities",
      comment: "transport/ (talking to a target) imports only domain/.",
      severity: "error",
      from: { path: "^transport/" },
      to: { path: `^(${CAPABILITIES}|k6-tooling|reporting|cli|bin|scripts)/` },
    },
    {
      name: "capabilities-below-reporting",
      comment:
        "The capabilities and k6-tooling/ import only domain/ and transport/ (and each other where allowed).",
      severity: "error",
      from: { path: `^(${CAPABILITIES}|k6-tooling)/` },
      to: { path: "^(reporting|cli|bin|scripts)/" },
    },
    {
      name: "capabilities-side-by-side",
      comment: "generators/, sandbox/, contracts/ and load/ do not import each other.",
      severity: "error",
      from: { path: `^(${CAPABILITIES})/` },
      to: { path: `^(${CAPABILITIES})/`, pathNot: "^$1/" },
    },
    {
      name: "reporting-below-cli",
      comment: "reporting/ does not import the program.",
      severity: "error",
      from: { path: "^reporting/" },
      to: { path: "^(cli|bin|scripts)/" },
    },
    {
      name: "index-only-across-folders",
      comment:
        "A shipped folder imports another only through an index.ts (its own, or a subfolder's); the zod-free " +
        "domain modules the k6 scenarios bundle are the exception, as domain/index.ts would pull zod into k6.",
      severity: "error",
      from: { path: `^(${SHIPPED})/` },
      to: {
        path: `^(${SHIPPED})/`,
        pathNot: ["^$1/", "/index\\.ts$", "^domain/(token-lifetime|value-kind)\\.ts$"],
      },
    },
    {
      name: "nothing-shipped-imports-scripts",
      comment: "scripts/ is development only.",
      severity: "error",
      from: { path: `^(${SHIPPED})/` },
      to: { path: "^scripts/" },
    },
  ],
  options: {
    // Type-only imports count: they tie the files together as much as any.
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // Tests may reach into any layer; examples and tools are not part of the program.
    exclude: { path: "^(node_modules|dist|reports|test|examples|tools)/" },
  },
};
