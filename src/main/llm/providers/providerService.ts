import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import type {
  CustomProviderInput,
  ProviderDraft,
  ProviderModelList,
  ProviderSummary,
  ProviderTestResult,
} from '../../../shared/ipc/routes/providers'
import { type InteractionMode, selectInteractionMode } from '../../../shared/settings'
import type { ClientOptions } from '../clients/clientOptions'
import { createLlmClient } from '../clients/createClient'
import type { LlmClient, ResolvedProvider } from '../types'
import { removeCustomProvider, upsertCustomProvider } from './customProviders'
import { readEnvOverrides } from './envOverrides'
import { listProviderModels } from './listModels'
import { loadProviderCatalog, type Notify, type ProviderCatalog } from './loadCatalog'
import { locatePresetsFile, PRESETS_FILE_NAME } from './locatePresetsFile'
import { activeProviderId, applyDefaults, resolveProvider } from './resolveProvider'
import type { ProviderSettingsSource } from './settingsSource'
import { testProvider } from './testProvider'

export interface ProviderServiceOptions {
  dataDir: string
  settings: ProviderSettingsSource
  notify: Notify
  env?: NodeJS.ProcessEnv
  /** The factory presets file; default: `providers.json` at the repository/app root. */
  presetsFile?: string
  clientOptions?: ClientOptions
}

export interface ProviderService {
  /** Every provider, merged with the user's file, settings and environment; keys only as set/unset. */
  list(): Promise<ProviderSummary[]>
  /** One provider with its key (default: the active one). Throws NOT_FOUND for an unknown id. */
  resolve(id?: string): Promise<ResolvedProvider & { active: boolean }>
  /** A client for a provider (default: the active one). */
  client(id?: string, options?: ClientOptions): Promise<LlmClient>
  /** A client for a conversation's choice: a provider and optionally another of its models (default: the active one). */
  /** `generation`: one conversation's temperature and answer length over the provider's. */
  clientFor(
    choice?: { providerId: string; model?: string | undefined },
    generation?: { temperature?: number | undefined; maxOutputTokens?: number | undefined },
  ): Promise<LlmClient>
  /** The interaction mode for a provider: explicit setting, else by context window (Ollama asks the server). */
  interactionMode(id?: string): Promise<InteractionMode>
  /** A one-line round trip with latency; `draft` replaces the saved base URL, model or key for this test only. */
  test(id?: string, signal?: AbortSignal, draft?: ProviderDraft): Promise<ProviderTestResult>
  /** The `apiKeyEnv` variable of each provider, for the settings service's env overrides. */
  keyEnvVar(providerId: string): string | undefined
  /** The models the provider lists at `/models` (OpenAI-compatible only); `draft` as in `test`. */
  listModels(id: string | undefined, signal?: AbortSignal, draft?: ProviderDraft): Promise<ProviderModelList>
  /** Adds or replaces an OpenAI-compatible provider in the user's providers.json; the summary read back. */
  saveCustom(input: CustomProviderInput): Promise<ProviderSummary>
  /** Removes a provider the user added. */
  removeCustom(id: string): Promise<{ id: string; removed: true }>
}

export async function createProviderService(options: ProviderServiceOptions): Promise<ProviderService> {
  const env = options.env ?? process.env
  // The catalog is re-read on every use: a broken providers.json is reported once, not on each read.
  const reported = new Set<string>()
  const files = {
    presetsFile: options.presetsFile ?? locatePresetsFile(),
    userFile: join(options.dataDir, PRESETS_FILE_NAME),
    notify: (notice: Parameters<Notify>[0]) => {
      const key = `${notice.id ?? ''}|${notice.message}`
      if (reported.has(key)) return
      reported.add(key)
      options.notify(notice)
    },
  }
  let catalog: ProviderCatalog = await loadProviderCatalog(files)
  // Presets are what the factory file (or the fallback) holds: a custom provider never takes their ids.
  const presetIds = async () =>
    new Set((await loadProviderCatalog({ ...files, userFile: undefined })).providers.map((p) => p.id))

  // Re-read on use: editing providers.json takes effect without a restart.
  const refresh = async () => {
    catalog = await loadProviderCatalog(files)
    return catalog
  }
  const resolve = async (id?: string) => {
    const { providers } = await refresh()
    return resolveProvider({
      providers,
      settings: options.settings,
      env: readEnvOverrides(env),
      processEnv: env,
      id,
    })
  }
  const client = async (id?: string, clientOptions?: ClientOptions) =>
    createLlmClient(await resolve(id), { ...options.clientOptions, ...clientOptions })

  const service: ProviderService = {
    resolve,
    client,
    async clientFor(choice, generation) {
      const tuned = generation?.temperature !== undefined || generation?.maxOutputTokens !== undefined
      if (!choice && !tuned) return client()
      const provider = await resolve(choice?.providerId)
      return createLlmClient(
        {
          ...provider,
          ...(choice?.model && { model: choice.model }),
          ...(generation?.temperature !== undefined && { temperature: generation.temperature }),
          ...(generation?.maxOutputTokens !== undefined && { maxOutputTokens: generation.maxOutputTokens }),
        },
        options.clientOptions,
      )
    },
    async list() {
      const { providers, userIds } = await refresh()
      const factory = await presetIds()
      const overrides = readEnvOverrides(env)
      const settingsId = (await options.settings.active()).providerId
      const activeId = activeProviderId(providers, overrides, settingsId)
      const activeSource = overrides.providerId ? 'environment' : settingsId ? 'settings' : 'default'
      const out: ProviderSummary[] = []
      for (const preset of providers) {
        const provider = await resolveProvider({
          providers,
          settings: options.settings,
          env: overrides,
          processEnv: env,
          id: preset.id,
        })
        out.push({
          id: provider.id,
          name: provider.name,
          kind: provider.kind,
          baseUrl: provider.baseUrl,
          model: provider.model,
          contextWindow: provider.contextWindow ?? null,
          interactionMode: selectInteractionMode({
            explicit: provider.interactionMode,
            contextWindow: provider.contextWindow,
          }),
          interactionModeSource: provider.interactionMode ? 'explicit' : 'auto',
          cacheType: provider.cacheType,
          supportsTools: provider.supportsTools,
          supportsVision: provider.supportsVision,
          apiKeyEnv: provider.apiKeyEnv ?? null,
          keySet: Boolean(provider.apiKey),
          needsKey: provider.apiKeyEnv !== undefined,
          active: provider.id === activeId,
          activeSource: provider.id === activeId ? activeSource : null,
          custom: userIds.has(provider.id),
          preset: factory.has(preset.id)
            ? {
                baseUrl: preset.baseUrl.replace(/\/+$/, ''),
                model: preset.model,
                contextWindow: preset.contextWindow ?? null,
              }
            : null,
          removable: !factory.has(preset.id),
          temperature: provider.temperature ?? null,
          maxOutputTokens: provider.maxOutputTokens ?? null,
        })
      }
      return out
    },
    async interactionMode(id) {
      const provider = await resolve(id)
      if (provider.interactionMode) return provider.interactionMode
      const window =
        provider.contextWindow ?? (await createLlmClient(provider, options.clientOptions).contextWindow())
      return selectInteractionMode({ contextWindow: window })
    },
    async test(id, signal, draft) {
      const saved = await resolve(id)
      const provider = {
        ...saved,
        baseUrl: draft?.baseUrl?.replace(/\/+$/, '') || saved.baseUrl,
        model: draft?.model || saved.model,
        apiKey: draft?.apiKey || saved.apiKey,
      }
      return testProvider(createLlmClient(provider, { ...options.clientOptions, maxRetries: 0 }), signal)
    },
    async listModels(id, signal, draft) {
      if (id === undefined) {
        // A server not saved yet gets the key typed for it and never a saved provider's key.
        if (!draft?.baseUrl) throw new AppError('VALIDATION_FAILED', 'Enter the base URL first.')
        const { baseUrl, apiKey } = draft
        return listProviderModels({ id: '', kind: 'openai-compatible', baseUrl, apiKey, headers: {} }, signal)
      }
      const saved = await resolve(id)
      return listProviderModels(
        {
          ...saved,
          baseUrl: draft?.baseUrl?.replace(/\/+$/, '') || saved.baseUrl,
          apiKey: draft?.apiKey || saved.apiKey,
        },
        signal,
      )
    },
    async saveCustom(input) {
      const id = await upsertCustomProvider(files.userFile, input, await presetIds())
      const stored = (await service.list()).find((p) => p.id === id)
      if (!stored) throw new AppError('INTERNAL', `The provider "${id}" was written but cannot be read back.`)
      return stored
    },
    async removeCustom(id) {
      await removeCustomProvider(files.userFile, id, await presetIds())
      if ((await refresh()).providers.some((p) => p.id === id))
        throw new AppError('INTERNAL', `The provider "${id}" is still listed after removing it.`)
      return { id, removed: true as const }
    },
    keyEnvVar(providerId) {
      const preset = catalog.providers.find((p) => p.id === providerId)
      return preset ? applyDefaults(preset).apiKeyEnv : undefined
    },
  }
  return service
}
