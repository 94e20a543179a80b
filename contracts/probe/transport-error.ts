/** The target could not be asked (refused, reset, timed out): a check that meets one is ERROR, never FAIL. */
export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
