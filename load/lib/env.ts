import { EnvError } from "../../core/index.ts";

/** A read-only view of environment variables: k6's `__ENV` or Node's `process.env`. */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

function present(env: EnvRecord, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? undefined : raw.trim();
}

/** Typed readers over an environment, in the spirit of k6-jslib-testing's env helpers: fail loudly, never guess. */
export function envReader(env: EnvRecord) {
  return {
    string(name: string, fallback?: string): string {
      const value = present(env, name) ?? fallback;
      if (value === undefined) throw new EnvError(`${name} is required`);
      return value;
    },
    optionalString(name: string): string | undefined {
      return present(env, name);
    },
    number(name: string, { min = -Infinity, max = Infinity, fallback }: NumberBounds): number {
      const raw = present(env, name);
      if (raw === undefined) {
        if (fallback === undefined) throw new EnvError(`${name} is required`);
        return fallback;
      }
      const value = Number(raw);
      if (!Number.isFinite(value) || value < min || value > max) {
        throw new EnvError(`${name} must be a number from ${min} to ${max}, got '${raw}'`);
      }
      return value;
    },
    optionalNumber(name: string, bounds: Omit<NumberBounds, "fallback"> = {}): number | undefined {
      return present(env, name) === undefined ? undefined : this.number(name, bounds);
    },
    integer(name: string, bounds: NumberBounds): number {
      const value = this.number(name, bounds);
      if (!Number.isSafeInteger(value)) throw new EnvError(`${name} must be a whole number, got '${value}'`);
      return value;
    },
    choice<const T extends string>(name: string, choices: readonly T[], fallback?: T): T {
      const value = present(env, name) ?? fallback;
      if (value === undefined) throw new EnvError(`${name} is required (one of ${choices.join(", ")})`);
      if (!(choices as readonly string[]).includes(value)) {
        throw new EnvError(`${name} must be one of ${choices.join(", ")}, got '${value}'`);
      }
      return value as T;
    },
    json(name: string, fallback?: unknown): unknown {
      const raw = present(env, name);
      if (raw === undefined) {
        if (fallback === undefined) throw new EnvError(`${name} is required`);
        return fallback;
      }
      try {
        return JSON.parse(raw);
      } catch {
        // The value may hold secrets: never echo it.
        throw new EnvError(`${name} is not valid JSON`);
      }
    },
  };
}

export interface NumberBounds {
  readonly min?: number;
  readonly max?: number;
  readonly fallback?: number;
}

export type EnvReader = ReturnType<typeof envReader>;
