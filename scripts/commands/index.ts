import type { Command } from "../cli/command.ts";
import { contractCommand } from "./contract.ts";
import { generateCommand } from "./generate.ts";
import { k6Command } from "./k6.ts";
import { loadCommand } from "./load.ts";
import { loadMergeCommand } from "./load-merge.ts";
import { openapiCommand } from "./openapi.ts";
import { runCommand } from "./run.ts";
import { sandboxCommand } from "./sandbox.ts";
import { sandboxRotateCommand } from "./sandbox-rotate.ts";
import { verifyRotationCommand } from "./verify-rotation.ts";

/** Every subcommand of the CLI, in the order `--help` lists them. */
export const commands: readonly Command[] = [
  runCommand,
  contractCommand,
  loadCommand,
  loadMergeCommand,
  verifyRotationCommand,
  sandboxCommand,
  sandboxRotateCommand,
  generateCommand,
  openapiCommand,
  k6Command,
] as readonly Command[];
