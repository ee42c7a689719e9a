import { AppError } from '../../../shared/errors'
import { ModelStore } from '../../models'
import type { SecretEnvSource, SettingsService } from '../../settings'
import type { LocalModelHost } from '../local/localHost'
import { sharedLocalEmbeddings, sharedLocalRuntime } from '../local/localHost'
import type { LocalRuntimeOptions } from '../local/localRuntime'
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

/** The local-model settings as runtime options: the idle time is read again each time it is used. */
function localRuntimeOptions(settings: SettingsService): LocalRuntimeOptions {
  const local = () => settings.get().localModels
  return {
    idleUnloadMs: () => local().idleUnloadMinutes * 60_000,
    ...(local().threads !== null && { threads: local().threads ?? 1 }),
  }
}

/** Installed models in `<data-dir>/models/` run by the process-wide runtime, tuned by the settings. */
export function settingsLocalHost(settings: SettingsService, dataDir: string): LocalModelHost {
  const store = new ModelStore(dataDir)
  return {
    modelPath: (model) => store.modelPath(model),
    runtime: sharedLocalRuntime(localRuntimeOptions(settings)),
  }
}

/** Embeddings from an installed GGUF model (by id, or a .gguf path), for the knowledge index. */
export interface LocalEmbeddingSource {
  embed(model: string, texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
}

export function settingsLocalEmbeddings(settings: SettingsService, dataDir: string): LocalEmbeddingSource {
  const store = new ModelStore(dataDir)
  const embeddings = sharedLocalEmbeddings(localRuntimeOptions(settings))
  return {
    embed: async (model, texts, signal) =>
      embeddings.embed(await embeddingModelPath(store, model), texts, signal),
  }
}

/** The catalogue has chat models only: an embedding model that is missing is imported, not pulled. */
async function embeddingModelPath(store: ModelStore, model: string): Promise<string> {
  try {
    return await store.modelPath(model)
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error
    throw new AppError(
      'NOT_FOUND',
      `The embedding model "${model}" is not installed. Import a GGUF embedding model with \`bureau models import <file.gguf>\` (or in Settings → Local models) and set knowledge.embeddingModel to its id, or to the path of a .gguf file.`,
      { cause: error },
    )
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
  const clientOptions = {
    ...options.clientOptions,
    local: options.clientOptions?.local ?? settingsLocalHost(settings, options.dataDir),
  }
  const providers = await createProviderService({
    ...options,
    clientOptions,
    settings: providerSettingsFrom(settings),
  })
  settings.registerSecretEnv(providerKeyEnvSource((id) => providers.keyEnvVar(id)))
  return providers
}
