import { type Settings, Settings as SettingsSchema } from '../../../src/shared/settings'

/** A settings source for the voice service: fixed settings and secrets, no files. */
export function settingsStub(
  voice: Record<string, unknown> = {},
  secrets: Record<string, string> = {},
): { get(): Settings; getSecret(name: string): Promise<string | undefined> } {
  const settings = SettingsSchema.parse({ voice })
  return { get: () => settings, getSecret: async (name) => secrets[name] }
}
