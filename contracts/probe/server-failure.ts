/** A 5xx where the contract allows none: the check FAILs as a MUST, whatever its own level (RFC 9110 §15.6). */
export class ServerFailure extends Error {
  override readonly name = "ServerFailure";
  constructor(
    message: string,
    /** The MUST rule the answer broke. */
    readonly rule: string,
  ) {
    super(message);
  }
}
