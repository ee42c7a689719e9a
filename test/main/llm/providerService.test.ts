import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createProviderService } from '../../../src/main/llm/providers/providerService'
import { type StaticSettings, staticSettingsSource } from '../../../src/main/llm/providers/settingsSource'
import type { AppNotice } from '../../../src/shared/ipc'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-llm-providers-')
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm({
    models: ['scripted-model', { id: 'qwen3:8b', architecture: 'qwen3', contextLength: 40960 }],
  })
})
afterAll(async () => {
  await llm.close()
  await dirs.cleanup()
})
beforeEach(() => llm.reset())

const KEY = 'sk-from-settings-abcdef123456'

async function service(settings: StaticSettings = {}, env: NodeJS.ProcessEnv = {}, userFile?: unknown) {
  const dataDir = await dirs.make()
  if (userFile !== undefined) await writeFile(join(dataDir, 'providers.json'), JSON.stringify(userFile))
  const notices: AppNotice[] = []
  const providers = await createProviderService({
    dataDir,
    settings: staticSettingsSource(settings),
    notify: (n) => notices.push(n),
    env,
    clientOptions: { timeoutMs: 5000, sleep: async () => {} },
  })
  return { providers, notices }
}

describe('resolving a provider', () => {
  it('defaults to Ollama; settings choose the active provider and model', async () => {
    const { providers } = await service()
    expect((await providers.resolve()).id).toBe('ollama')
    const chosen = await service({ providerId: 'deepseek', model: 'deepseek-reasoner' })
    expect(await chosen.providers.resolve()).toMatchObject({
      id: 'deepseek',
      model: 'deepseek-reasoner',
      active: true,
    })
  })

  it('priority: environment > settings override > user file > preset', async () => {
    const userFile = [{ id: 'ollama', model: 'from-user-file', contextWindow: 4096 }]
    const { providers } = await service(
      { overrides: { ollama: { model: 'from-settings', interactionMode: 'api' } } },
      {},
      userFile,
    )
    expect(await providers.resolve('ollama')).toMatchObject({
      model: 'from-settings',
      contextWindow: 4096,
      interactionMode: 'api',
    })
    const withEnv = await service(
      { overrides: { ollama: { model: 'from-settings' } } },
      {
        BUREAU_MODEL: 'from-env',
        BUREAU_BASE_URL: 'http://127.0.0.1:9999',
        BUREAU_CONTEXT_WINDOW: '65536',
        BUREAU_INTERACTION_MODE: 'cli',
      },
      userFile,
    )
    expect(await withEnv.providers.resolve()).toMatchObject({
      id: 'ollama',
      model: 'from-env',
      baseUrl: 'http://127.0.0.1:9999',
      contextWindow: 65536,
      interactionMode: 'cli',
    })
  })

  it('BUREAU_PROVIDER picks the active provider; BUREAU_API_KEY is its key only', async () => {
    const { providers } = await service(
      { providerId: 'ollama' },
      { BUREAU_PROVIDER: 'zai', BUREAU_API_KEY: 'sk-env-key-000111222' },
    )
    expect(await providers.resolve()).toMatchObject({
      id: 'zai',
      apiKey: 'sk-env-key-000111222',
      apiKeyFrom: 'BUREAU_API_KEY',
      active: true,
    })
    expect((await providers.resolve('deepseek')).apiKey).toBeUndefined()
    const list = await providers.list()
    expect(list.find((p) => p.active)).toMatchObject({ id: 'zai', activeSource: 'environment' })
    expect(list.find((p) => p.id === 'ollama')).toMatchObject({ active: false, activeSource: null })
  })

  it("keys: the provider's apiKeyEnv wins over the stored secret", async () => {
    const settings = { secrets: { 'providers.deepseek.apiKey': KEY } }
    const stored = await (await service(settings)).providers.resolve('deepseek')
    expect(stored.apiKey).toBe(KEY)
    expect(stored.apiKeyFrom).toBeUndefined()
    const fromEnv = await service(settings, { DEEPSEEK_API_KEY: 'sk-deepseek-env-999' })
    expect(await fromEnv.providers.resolve('deepseek')).toMatchObject({
      apiKey: 'sk-deepseek-env-999',
      apiKeyFrom: 'DEEPSEEK_API_KEY',
    })
    expect(fromEnv.providers.keyEnvVar('deepseek')).toBe('DEEPSEEK_API_KEY')
  })

  it('bad environment values and unknown ids are clear errors', async () => {
    const { providers } = await service({}, { BUREAU_CONTEXT_WINDOW: 'lots' })
    await expect(providers.resolve()).rejects.toThrow(/BUREAU_CONTEXT_WINDOW must be a whole number/)
    const ok = await service()
    await expect(ok.providers.resolve('nope')).rejects.toThrow(
      /Unknown provider "nope". Known providers: ollama, local, deepseek/,
    )
  })
})

describe('list', () => {
  it('shows every provider with mode and key state, never the key', async () => {
    const { providers } = await service(
      { providerId: 'deepseek', secrets: { 'providers.deepseek.apiKey': KEY } },
      {},
      [
        {
          id: 'mine',
          name: 'Mine',
          kind: 'openai-compatible',
          baseUrl: 'http://127.0.0.1:8080/v1',
          model: 'm',
          interactionMode: 'cli',
        },
      ],
    )
    const list = await providers.list()
    expect(list.map((p) => p.id)).toEqual([
      'ollama',
      'local',
      'deepseek',
      'zai',
      'gemini',
      'openai',
      'anthropic',
      'lmstudio',
      'mine',
    ])
    expect(JSON.stringify(list)).not.toContain(KEY)
    const byId = Object.fromEntries(list.map((p) => [p.id, p]))
    expect(byId.deepseek).toMatchObject({
      active: true,
      keySet: true,
      needsKey: true,
      interactionMode: 'api',
      interactionModeSource: 'auto',
    })
    expect(byId.openai).toMatchObject({
      active: false,
      keySet: false,
      needsKey: true,
      apiKeyEnv: 'OPENAI_API_KEY',
    })
    expect(byId.ollama).toMatchObject({ contextWindow: null, interactionMode: 'cli', needsKey: false })
    expect(byId.mine).toMatchObject({
      custom: true,
      interactionMode: 'cli',
      interactionModeSource: 'explicit',
    })
  })
})

describe('Ollama context window and interaction mode', () => {
  it('reads the window from /api/show when not configured (capped) and picks cli below 128k', async () => {
    const { providers } = await service({ overrides: { ollama: { baseUrl: llm.url } } })
    const client = await providers.client('ollama')
    expect(await client.contextWindow()).toBe(32_768) // 40960 from /api/show, capped for memory
    expect(llm.requests.some((r) => r.endpoint === 'ollama.show')).toBe(true)
    expect(await providers.interactionMode('ollama')).toBe('cli')
    llm.push({ text: 'ok' })
    await client.chat({ messages: [{ role: 'user', content: 'hi' }] })
    const chat = llm.requests.find((r) => r.endpoint === 'ollama.chat')
    expect(chat?.body).toMatchObject({ options: { num_ctx: 32_768 } })
  })

  it('a configured window wins and is sent as num_ctx', async () => {
    const { providers } = await service({
      overrides: { ollama: { baseUrl: llm.url, contextWindow: 131072 } },
    })
    expect(await providers.interactionMode('ollama')).toBe('api')
    llm.push({ text: 'ok' })
    await (await providers.client('ollama')).chat({ messages: [{ role: 'user', content: 'hi' }] })
    expect(llm.requests.some((r) => r.endpoint === 'ollama.show')).toBe(false)
    expect(llm.requests[0]?.body).toMatchObject({ options: { num_ctx: 131072 } })
  })
})

describe('test', () => {
  it('round trip with latency and the start of the reply', async () => {
    const { providers } = await service({
      providerId: 'lmstudio',
      overrides: { lmstudio: { baseUrl: llm.baseUrl, model: 'scripted-model' } },
    })
    llm.push({ text: 'OK' })
    const result = await providers.test()
    expect(result).toMatchObject({
      id: 'lmstudio',
      ok: true,
      reply: 'OK',
      model: 'scripted-model',
      error: null,
    })
    expect(result.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('a failure is a result with the error, not a throw; no retries', async () => {
    const { providers } = await service({
      secrets: { 'providers.openai.apiKey': KEY },
      overrides: { openai: { baseUrl: llm.baseUrl } },
    })
    llm.push({ error: { status: 401, message: `bad key ${KEY}` } })
    const result = await providers.test('openai')
    expect(result.ok).toBe(false)
    expect(result.error?.code).toBe('UNAUTHORIZED')
    expect(JSON.stringify(result)).not.toContain(KEY)
    expect(llm.requests).toHaveLength(1)
  })
})
