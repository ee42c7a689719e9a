import { readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLlmClient } from '../../../src/main/llm'
import { idFromName } from '../../../src/main/llm/providers/customProviders'
import { createProviderService } from '../../../src/main/llm/providers/providerService'
import { type StaticSettings, staticSettingsSource } from '../../../src/main/llm/providers/settingsSource'
import { AppError } from '../../../src/shared/errors'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProvider } from '../../support/scriptedProvider'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-custom-providers-')
let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm({ models: ['zeta-7b', 'alpha-3b'] })
})
afterAll(async () => {
  await llm.close()
  await dirs.cleanup()
})

async function service(settings: StaticSettings = {}) {
  const dataDir = await dirs.make()
  const providers = await createProviderService({
    dataDir,
    settings: staticSettingsSource(settings),
    notify: () => {},
    env: {},
    clientOptions: { timeoutMs: 5000, sleep: async () => {} },
  })
  return { providers, file: join(dataDir, 'providers.json') }
}

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('custom OpenAI-compatible providers', () => {
  it('adds a named provider, lists it with its own values and no preset, and removes it', async () => {
    const { providers, file } = await service()
    const stored = await providers.saveCustom({
      name: 'LM Studio (office)',
      baseUrl: `${llm.baseUrl}/`,
      model: 'zeta-7b',
    })
    expect(stored).toMatchObject({
      id: 'lm-studio-office',
      name: 'LM Studio (office)',
      kind: 'openai-compatible',
      baseUrl: llm.baseUrl,
      model: 'zeta-7b',
      contextWindow: null,
      preset: null,
      removable: true,
    })
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual([
      {
        id: 'lm-studio-office',
        name: 'LM Studio (office)',
        kind: 'openai-compatible',
        baseUrl: llm.baseUrl,
        model: 'zeta-7b',
      },
    ])
    llm.push({ text: 'OK' })
    const test = await providers.test('lm-studio-office')
    expect(test).toMatchObject({ ok: true, model: 'zeta-7b' })
    const openai = (await providers.list()).find((p) => p.id === 'openai')
    expect(openai?.removable).toBe(false)
    expect(openai?.preset?.baseUrl).toBe('https://api.openai.com/v1')

    await expect(providers.removeCustom('lm-studio-office')).resolves.toEqual({
      id: 'lm-studio-office',
      removed: true,
    })
    expect((await providers.list()).some((p) => p.id === 'lm-studio-office')).toBe(false)
    await expect(providers.removeCustom('openai')).rejects.toThrow(/built-in provider/)
  })

  it("keeps the user's other entries and refuses a broken file without touching it", async () => {
    const { providers, file } = await service()
    await writeFile(file, JSON.stringify([{ id: 'ollama', model: 'mine' }]))
    await providers.saveCustom({
      name: 'vLLM',
      baseUrl: llm.baseUrl,
      model: 'alpha-3b',
      contextWindow: 32768,
    })
    const saved = JSON.parse(await readFile(file, 'utf8')) as Array<{ id: string }>
    expect(saved.map((e) => e.id)).toEqual(['ollama', 'vllm'])
    expect((await providers.resolve('vllm')).contextWindow).toBe(32768)

    await writeFile(file, '[{"id": ')
    await expect(providers.saveCustom({ name: 'Other', baseUrl: llm.baseUrl, model: 'm' })).rejects.toThrow(
      /not valid JSON.*nothing was changed/,
    )
    expect(await readFile(file, 'utf8')).toBe('[{"id": ')
  })

  it('never takes the id of a preset', async () => {
    expect(idFromName('OpenAI', new Set(['openai']))).toBe('openai-2')
    expect(idFromName('  ', new Set())).toBe('custom')
    const { providers } = await service()
    await expect(
      providers.saveCustom({ id: 'deepseek', name: 'Mine', baseUrl: llm.baseUrl, model: 'm' }),
    ).rejects.toBeInstanceOf(AppError)
  })
})

describe('the model list from /models', () => {
  it('lists the models of the server on screen, sorted', async () => {
    const { providers } = await service()
    const listed = await providers.listModels('openai', undefined, {
      baseUrl: llm.baseUrl,
      apiKey: 'sk-typed',
    })
    expect(listed).toEqual({ id: 'openai', models: ['alpha-3b', 'zeta-7b'], error: null })
    const unsaved = await providers.listModels(undefined, undefined, { baseUrl: llm.baseUrl })
    expect(unsaved.models).toEqual(['alpha-3b', 'zeta-7b'])
  })

  it('says why when the server does not answer, and lists nothing', async () => {
    const { providers } = await service()
    const port = await closedPort()
    const listed = await providers.listModels('openai', undefined, { baseUrl: `http://127.0.0.1:${port}/v1` })
    expect(listed.models).toEqual([])
    expect(listed.error).toContain(`Cannot reach http://127.0.0.1:${port}/v1/models`)
  })
})

describe('an unreachable server on this machine', () => {
  it('names the address, not the preset the URL was typed into', async () => {
    const port = await closedPort()
    const client = createLlmClient(
      scriptedProvider(llm, 'openai-compatible', { name: 'OpenAI', baseUrl: `http://127.0.0.1:${port}/v1` }),
      { timeoutMs: 5000, sleep: async () => {}, maxRetries: 0 },
    )
    const error = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).message).toBe(
      `Cannot reach the model server at http://127.0.0.1:${port}/v1. Is it running, and is the base URL right?`,
    )
    expect((error as AppError).message).not.toContain('OpenAI')
  })
})
