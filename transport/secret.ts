const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** A credential that prints as `[redacted]` everywhere (string, JSON, util.inspect) unless explicitly revealed. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The raw value, for the one place that must send it on the wire. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return "[redacted]";
  }

  toJSON(): string {
    return "[redacted]";
  }

  [INSPECT](): string {
    return "Secret([redacted])";
  }
}
