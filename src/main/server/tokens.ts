import { randomBytes, timingSafeEqual } from 'node:crypto'

export function generateToken(): string {
  return randomBytes(24).toString('base64url')
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response times. */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
