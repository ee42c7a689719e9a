import { z } from 'zod'
import { MaskedSecret } from './maskedSecret'
import { Settings } from './schema'

/** How secrets are protected on this machine, so Settings can warn when it is weak. */
export const SecretStorageInfo = z.object({
  /** `key-file` (headless host), `os-keychain` (Electron safeStorage), `basic-text` (Linux fallback). */
  kind: z.string(),
  /** False when anyone who can read the data folder can read the secrets too. */
  secure: z.boolean(),
  warning: z.string().optional(),
})
export type SecretStorageInfo = z.infer<typeof SecretStorageInfo>

/**
 * Settings as the renderer sees them: the stored settings plus every known secret masked.
 * `secrets` is keyed by secret name (`providers.deepseek.apiKey`); a name that is absent is not set.
 */
export const PublicSettings = Settings.extend({
  secrets: z.record(z.string(), MaskedSecret),
  secretStorage: SecretStorageInfo,
})
export type PublicSettings = z.output<typeof PublicSettings>
