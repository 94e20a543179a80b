/** Why a run cannot start although the command line was fine: the target's fault or the network's (exit 3). */
export class CannotRunError extends Error {
  override readonly name = "CannotRunError";
}
