import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** RFC 6750 §2.1 b64token: what fits in `Authorization: Bearer …` without quoting. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
export const ADMIN_TOKEN_MIN_LENGTH = 16;
export const ADMIN_TOKEN_MAX_LENGTH = 512;

/** A fresh admin token: 256 random bits, base64url. */
export function randomAdminToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Throws a TypeError/RangeError naming the problem when `token` cannot serve as the admin credential. */
export function checkAdminToken(token: string): string {
  if (typeof token !== "string") throw new TypeError("adminToken must be a string");
  if (token.length < ADMIN_TOKEN_MIN_LENGTH || token.length > ADMIN_TOKEN_MAX_LENGTH) {
    throw new RangeError(
      `adminToken must be ${ADMIN_TOKEN_MIN_LENGTH} to ${ADMIN_TOKEN_MAX_LENGTH} characters long, got ${token.length}`,
    );
  }
  if (!B64TOKEN.test(token)) {
    throw new RangeError("adminToken may hold only letters, digits and - . _ ~ + / (then = padding)");
  }
  return token;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Checks presented admin tokens in constant time (digests of equal length), so timing reveals nothing. */
export class AdminTokenGuard {
  readonly #expected: Buffer;

  constructor(token: string) {
    this.#expected = digest(token);
  }

  matches(presented: string): boolean {
    return timingSafeEqual(this.#expected, digest(presented));
  }
}
