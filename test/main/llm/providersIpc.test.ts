import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/platform'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-llm-ipc-')
const SECRET = 'sk-ipc-secret-0123456789abcdef'
const ctx = () => ({ senderId: 'test', signal: new AbortController().signal })
let llm: ScriptedLlm
let app: BureauApp

beforeAll(async () => {
  llm = await startScriptedLlm()
  const root = await dirs.make()
  app = await createApp({
    host: 'web',
    dataDir: join(root, 'data'),
    workspaceDir: join(root, 'ws'),
    logger: silentLogger,
  })
  await app.settings.update({
    provider: { active: 'lmstudio' },
    providers: {
      lmstudio: { baseUrl: llm.baseUrl, model: 'scripted-model' },
      openai: { baseUrl: llm.baseUrl },
    },
  })
  await app.settings.setSecret('providers.openai.apiKey', SECRET)
})
afterAll(async () => {
  await app.dispose()
  await llm.close()
  await dirs.cleanup()
})

describe('providers.* routes', () => {
  it('providers.list: presets merged with settings, the key only as set/unset', async () => {
    const result = await app.router.dispatch('providers.list', undefined, ctx())
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const list = result.value as Array<{ id: string; active: boolean; keySet: boolean; baseUrl: string }>
    expect(list.find((p) => p.active)?.id).toBe('lmstudio')
    expect(list.find((p) => p.id === 'lmstudio')?.baseUrl).toBe(llm.baseUrl)
    expect(list.find((p) => p.id === 'openai')?.keySet).toBe(true)
    expect(JSON.stringify(list)).not.toContain(SECRET)
  })

  it('providers.test: a round trip through the stored key, with latency', async () => {
    llm.push({ text: 'OK' })
    const result = await app.router.dispatch('providers.test', { id: 'openai' }, ctx())
    expect(result).toMatchObject({ ok: true, value: { id: 'openai', ok: true, reply: 'OK', error: null } })
    expect(llm.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`)
  })

  it('providers.test without id tests the active provider; an unknown id is NOT_FOUND', async () => {
    llm.push({ text: 'OK' })
    const active = await app.router.dispatch('providers.test', {}, ctx())
    expect(active).toMatchObject({ ok: true, value: { id: 'lmstudio', ok: true } })
    const unknown = await app.router.dispatch('providers.test', { id: 'nope' }, ctx())
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})
