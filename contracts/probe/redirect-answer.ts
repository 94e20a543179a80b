/**
 * A 3xx where the contract expects the endpoint to answer itself: the check FAILs as a MUST, whatever its level.
 * The harness never follows it, so the request's credentials stay with the configured URL.
 */
export class RedirectAnswer extends Error {
  override readonly name = "RedirectAnswer";
  constructor(
    message: string,
    /** The MUST rule the answer broke. */
    readonly rule: string,
  ) {
    super(message);
  }
}
