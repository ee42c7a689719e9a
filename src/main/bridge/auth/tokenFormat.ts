import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'

/** Token names, as the secret names `bridge.tokens.<name>` allow them. */
export const TOKEN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/

/** `bureau-<name>.<43 url-safe characters>`: the name tells which stored hash to check against. */
const TOKEN_SHAPE = /^bureau-([a-z0-9][a-z0-9_-]{0,63})\.([A-Za-z0-9_-]{43})$/

export function secretNameOf(name: string): string {
  return `bridge.tokens.${name}`
}

export function newToken(name: string): string {
  return `bureau-${name}.${randomBytes(32).toString('base64url')}`
}

/** The token name a presented token claims, or undefined when it does not look like a bridge token. */
export function tokenNameOf(token: string): string | undefined {
  return TOKEN_SHAPE.exec(token)?.[1]
}

/** What is stored (encrypted) for a token: only its SHA-256, so even a decrypted store cannot replay it. */
export const StoredToken = z.object({
  v: z.literal(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  created: z.string(),
})
export type StoredToken = z.infer<typeof StoredToken>

function sha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

export function storedTokenFor(token: string, created: Date): StoredToken {
  return { v: 1, sha256: sha256(token), created: created.toISOString() }
}

export function parseStoredToken(value: string | undefined): StoredToken | undefined {
  if (value === undefined) return undefined
  try {
    const parsed = StoredToken.safeParse(JSON.parse(value))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Constant-time: hashes of equal length compared with timingSafeEqual. */
export function tokenMatches(token: string, stored: StoredToken): boolean {
  return timingSafeEqual(Buffer.from(sha256(token), 'hex'), Buffer.from(stored.sha256, 'hex'))
}
