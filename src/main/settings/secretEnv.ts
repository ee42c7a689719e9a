import type { Settings } from '../../shared/settings'

/** Reads one environment variable; injectable so tests and embedders control the environment. */
export type EnvLookup = (name: string) => string | undefined

export const processEnv: EnvLookup = (name) => process.env[name]

/**
 * Maps secret names to environment variables that override the stored value. The providers service
 * registers one that maps `providers.<id>.apiKey` to the preset's `apiKeyEnv` (e.g. DEEPSEEK_API_KEY).
 */
export interface SecretEnvSource {
  /** Variables that override `name`, most specific first. */
  envVarsFor(name: string, settings: Settings): readonly string[]
  /** Secret names this source knows, so Settings can list them even when nothing is stored. */
  knownNames?(settings: Settings): readonly string[]
}

export function activeProviderKeyName(settings: Settings): string {
  return `providers.${settings.provider.active}.apiKey`
}

/** `BUREAU_API_KEY` is the key of whichever provider is active. */
export const bureauApiKeyEnv: SecretEnvSource = {
  envVarsFor: (name, settings) => (name === activeProviderKeyName(settings) ? ['BUREAU_API_KEY'] : []),
  knownNames: (settings) => [activeProviderKeyName(settings)],
}

export function envOverride(
  name: string,
  settings: Settings,
  sources: Iterable<SecretEnvSource>,
  env: EnvLookup,
): { envVar: string; value: string } | undefined {
  for (const source of sources) {
    for (const envVar of source.envVarsFor(name, settings)) {
      const value = env(envVar)?.trim()
      if (value) return { envVar, value }
    }
  }
  return undefined
}
