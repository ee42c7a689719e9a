import type { SecretEnvSource, SettingsService } from '../../settings'
import { createProviderService, type ProviderService, type ProviderServiceOptions } from './providerService'
import type { ProviderSettingsSource } from './settingsSource'

/** Reads the active provider, per-provider overrides and keys from the settings service. */
export function providerSettingsFrom(settings: SettingsService): ProviderSettingsSource {
  return {
    active: () => {
      const { provider } = settings.get()
      return { providerId: provider.active, model: provider.model ?? undefined }
    },
    override: (id) => settings.get().providers[id],
    getSecret: (name) => settings.getSecret(name),
  }
}

const KEY_NAME = /^providers\.([a-z0-9][a-z0-9_-]{0,63})\.apiKey$/

/** Lets the settings service honour each provider's `apiKeyEnv` (e.g. DEEPSEEK_API_KEY) for its key. */
export function providerKeyEnvSource(keyEnvVar: (providerId: string) => string | undefined): SecretEnvSource {
  return {
    envVarsFor(name) {
      const id = KEY_NAME.exec(name)?.[1]
      const envVar = id ? keyEnvVar(id) : undefined
      return envVar ? [envVar] : []
    },
  }
}

/**
 * The provider service as the app and every CLI command use it: providers read from the settings
 * (active provider, overrides, keys), and each provider's `apiKeyEnv` honoured by the settings' secrets.
 */
export async function createSettingsProviders(
  settings: SettingsService,
  options: Omit<ProviderServiceOptions, 'settings'>,
): Promise<ProviderService> {
  const providers = await createProviderService({ ...options, settings: providerSettingsFrom(settings) })
  settings.registerSecretEnv(providerKeyEnvSource((id) => providers.keyEnvVar(id)))
  return providers
}
