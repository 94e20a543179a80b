#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly so `npx event-harness` needs no build step.
import { register } from "tsx/esm/api";

register();
await import("./cli/entry.ts");
