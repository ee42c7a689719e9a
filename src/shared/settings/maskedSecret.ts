import { z } from 'zod'

/** What the renderer learns about a secret: whether it is set and a short hint, never the value. */
export const MaskedSecret = z.object({
  set: z.boolean(),
  /** e.g. `sk-…a1b2`; absent for short secrets, where even four characters say too much. */
  hint: z.string().optional(),
  /** Where the value in use comes from: the encrypted store or an environment variable. */
  source: z.enum(['stored', 'env']).optional(),
  /** The environment variable that overrides the stored value, when one is set. */
  envVar: z.string().optional(),
  /** The stored copy could not be decrypted: the user must enter it again. */
  unreadable: z.boolean().optional(),
})
export type MaskedSecret = z.infer<typeof MaskedSecret>

const knownPrefix = /^(sk-(?:ant-|proj-|or-)?|gsk_|xai-|hf_|AIza)/

/**
 * A hint that identifies a key without weakening it: a well-known vendor prefix and the last four
 * characters, only for long secrets. Computed when the secret is set, so masking never decrypts.
 */
export function secretHint(value: string, name = ''): string | undefined {
  // Even a password's last characters help a guess: passwords are never shown back, not even in part.
  if (/password$/i.test(name)) return undefined
  const secret = value.trim()
  if (secret.length < 16) return undefined
  const prefix = secret.length >= 20 ? (secret.match(knownPrefix)?.[1] ?? '') : ''
  return `${prefix}…${secret.slice(-4)}`
}
