import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUILTIN_PRESETS } from '../../../src/main/llm/providers/builtinPresets'
import { loadProviderCatalog } from '../../../src/main/llm/providers/loadCatalog'
import { locatePresetsFile } from '../../../src/main/llm/providers/locatePresetsFile'
import { PresetsFileSchema } from '../../../src/main/llm/providers/presetSchema'
import type { AppNotice } from '../../../src/shared/ipc'
import { repoRoot } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-llm-presets-')
afterAll(() => dirs.cleanup())

function noticeSink() {
  const notices: AppNotice[] = []
  return { notices, notify: (notice: AppNotice) => notices.push(notice) }
}

describe('providers.json and the embedded presets', () => {
  it('the repository file and the embedded fallback are identical and valid', async () => {
    const fromFile: unknown = JSON.parse(await readFile(join(repoRoot, 'providers.json'), 'utf8'))
    expect(PresetsFileSchema.parse(fromFile)).toEqual(BUILTIN_PRESETS)
    expect(fromFile).toEqual(BUILTIN_PRESETS)
  })

  it('has the presets the issue asks for, Ollama first, each with its kind and base URL', () => {
    const byId = Object.fromEntries(BUILTIN_PRESETS.map((p) => [p.id, p]))
    expect(BUILTIN_PRESETS[0]?.id).toBe('ollama')
    expect(byId.ollama).toMatchObject({ kind: 'ollama', baseUrl: 'http://127.0.0.1:11434' })
    expect(byId.zai).toMatchObject({ kind: 'openai-compatible', baseUrl: 'https://api.z.ai/api/paas/v4' })
    expect(byId.gemini?.baseUrl).toBe('https://generativelanguage.googleapis.com/v1beta/openai')
    expect(byId.anthropic).toMatchObject({ kind: 'anthropic', cacheType: 'anthropic' })
    expect(byId.lmstudio?.baseUrl).toBe('http://127.0.0.1:1234/v1')
    for (const id of ['deepseek', 'openai']) expect(byId[id]?.kind).toBe('openai-compatible')
    // Cloud providers name their key variable; local ones need none.
    for (const id of ['deepseek', 'zai', 'gemini', 'openai', 'anthropic'])
      expect(byId[id]?.apiKeyEnv).toMatch(/_API_KEY$/)
    for (const id of ['ollama', 'lmstudio']) expect(byId[id]?.apiKeyEnv).toBeUndefined()
  })

  it('finds the repository file from the source folder', () => {
    expect(locatePresetsFile()).toBe(join(repoRoot, 'providers.json'))
  })
})

describe('loadProviderCatalog', () => {
  it('uses the repository file without a notice when it is valid', async () => {
    const sink = noticeSink()
    const catalog = await loadProviderCatalog({
      presetsFile: locatePresetsFile(),
      userFile: undefined,
      notify: sink.notify,
    })
    expect(catalog.usedFallback).toBe(false)
    expect(catalog.providers.map((p) => p.id)).toEqual(BUILTIN_PRESETS.map((p) => p.id))
    expect(sink.notices).toEqual([])
  })

  it('falls back to the embedded presets with a notice when the file is missing or invalid', async () => {
    const dir = await dirs.make()
    const broken = join(dir, 'providers.json')
    for (const content of [undefined, '{ not json', JSON.stringify([{ id: 'x', kind: 'magic' }])]) {
      if (content !== undefined) await writeFile(broken, content)
      const sink = noticeSink()
      const catalog = await loadProviderCatalog({
        presetsFile: content === undefined ? join(dir, 'absent.json') : broken,
        userFile: undefined,
        notify: sink.notify,
      })
      expect(catalog.usedFallback).toBe(true)
      expect(catalog.providers).toEqual(BUILTIN_PRESETS)
      expect(sink.notices).toHaveLength(1)
      expect(sink.notices[0]).toMatchObject({ level: 'warning', id: 'providers.presets-fallback' })
      expect(sink.notices[0]?.message).toContain('built-in provider presets')
      expect(sink.notices[0]?.message).not.toContain(dir)
    }
  })

  it("merges the user's file: a known id changes fields, a new complete entry adds a provider", async () => {
    const dir = await dirs.make()
    const userFile = join(dir, 'providers.json')
    await writeFile(
      userFile,
      JSON.stringify([
        { id: 'ollama', model: 'llama3.2:3b', contextWindow: 8192 },
        {
          id: 'groq',
          name: 'Groq',
          kind: 'openai-compatible',
          baseUrl: 'https://api.groq.com/openai/v1',
          model: 'llama-3.3-70b-versatile',
          apiKeyEnv: 'GROQ_API_KEY',
        },
      ]),
    )
    const sink = noticeSink()
    const catalog = await loadProviderCatalog({
      presetsFile: locatePresetsFile(),
      userFile,
      notify: sink.notify,
    })
    expect(sink.notices).toEqual([])
    const ollama = catalog.providers.find((p) => p.id === 'ollama')
    expect(ollama).toMatchObject({
      kind: 'ollama',
      baseUrl: 'http://127.0.0.1:11434',
      model: 'llama3.2:3b',
      contextWindow: 8192,
    })
    expect(catalog.providers.at(-1)).toMatchObject({ id: 'groq', apiKeyEnv: 'GROQ_API_KEY' })
    expect([...catalog.userIds].sort()).toEqual(['groq', 'ollama'])
  })

  it('skips an incomplete new provider with a notice and keeps the rest', async () => {
    const dir = await dirs.make()
    const userFile = join(dir, 'providers.json')
    await writeFile(
      userFile,
      JSON.stringify([
        { id: 'half', name: 'Half' },
        { id: 'deepseek', model: 'deepseek-reasoner' },
      ]),
    )
    const sink = noticeSink()
    const catalog = await loadProviderCatalog({
      presetsFile: locatePresetsFile(),
      userFile,
      notify: sink.notify,
    })
    expect(catalog.providers.find((p) => p.id === 'half')).toBeUndefined()
    expect(catalog.providers.find((p) => p.id === 'deepseek')?.model).toBe('deepseek-reasoner')
    expect(sink.notices[0]?.message).toMatch(/"half".*kind.*baseUrl.*model/)
  })

  it('ignores an invalid user file with a notice naming the entry and field', async () => {
    const dir = await dirs.make()
    const userFile = join(dir, 'providers.json')
    await writeFile(userFile, JSON.stringify([{ id: 'ollama', baseUrl: 'ftp://nope', temperature: 'hot' }]))
    const sink = noticeSink()
    const catalog = await loadProviderCatalog({
      presetsFile: locatePresetsFile(),
      userFile,
      notify: sink.notify,
    })
    expect(catalog.providers).toEqual(BUILTIN_PRESETS)
    expect(sink.notices[0]?.id).toBe('providers.user-file-invalid')
    expect(sink.notices[0]?.message).toContain('entry 1 (ollama), baseUrl')
    expect(sink.notices[0]?.message).not.toContain(dir)
  })
})
