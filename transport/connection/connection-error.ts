/** A request could not be made for a reason of the way to the target (CA file, proxy, TLS), said plainly. */
export class ConnectionError extends Error {
  override readonly name = "ConnectionError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}
