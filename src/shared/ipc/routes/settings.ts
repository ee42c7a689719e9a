import { z } from 'zod'
import { PublicSettings, SecretName, SettingsUpdate } from '../../settings'
import { route } from '../defineContract'

// The renderer finds the settings types next to the routes that carry them.
export type { MaskedSecret, SecretStorageInfo, SettingsPatch } from '../../settings'
export { PublicSettings } from '../../settings'

/** A secret's value: accepted, encrypted, never sent back. */
export const SecretValue = z.string().min(1, 'The value is empty.').max(16_384)

export const settingsRoutes = {
  'settings.get': route({
    summary: 'The settings, with every secret masked ({set, hint}).',
    input: z.void(),
    output: PublicSettings,
  }),
  'settings.update': route({
    summary: 'Applies a partial update (null resets a value to its default); returns the new settings.',
    input: SettingsUpdate,
    output: PublicSettings,
  }),
  'settings.setSecret': route({
    summary: 'Stores a secret (API key, password, token) encrypted; it can be replaced but never read back.',
    input: z.object({ name: SecretName, value: SecretValue }),
    output: PublicSettings,
  }),
  'settings.clearSecret': route({
    summary: 'Removes a stored secret.',
    input: z.object({ name: SecretName }),
    output: PublicSettings,
  }),
}

export const settingsEvents = {
  'settings.changed': PublicSettings,
}
