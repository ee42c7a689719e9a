import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { silentLogger } from '../../../src/main/logging'
import { type HttpHost, startHttpHost } from '../../../src/main/server'
import { parseWav } from '../../../src/main/voice'
import type { IpcClient } from '../../../src/shared/ipc'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'
import { httpIpcClient } from '../agent/httpClient'

// The voice routes end to end over the HTTP host: binary payloads both ways, events over SSE, the
// real chatStream against the scripted model.
const TOKEN = 'voice-ipc-token'
const dirs = tempDirs('bureau-voice-ipc-')
const ENV = ['BUREAU_PROVIDER', 'BUREAU_BASE_URL', 'BUREAU_MODEL', 'BUREAU_API_KEY']
const saved = new Map(ENV.map((name) => [name, process.env[name]]))

let llm: ScriptedLlm
let app: BureauApp
let host: HttpHost
let client: IpcClient
const events: Array<{ event: string; payload: Record<string, unknown> }> = []

beforeAll(async () => {
  llm = await startScriptedLlm()
  Object.assign(process.env, {
    BUREAU_PROVIDER: 'openai',
    BUREAU_BASE_URL: llm.baseUrl,
    BUREAU_MODEL: 'scripted-model',
    BUREAU_API_KEY: 'sk-voice-ipc',
  })
})
afterAll(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  await llm.close()
})
beforeEach(async () => {
  llm.reset()
  events.length = 0
  app = await createApp({
    host: 'web',
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    logger: silentLogger,
  })
  host = await startHttpHost({ app, port: 0, token: TOKEN })
  const connected = httpIpcClient(host.url, TOKEN)
  client = connected.client
  for (const event of ['voice.delta', 'voice.done'] as const)
    client.on(event, (payload) => events.push({ event, payload: payload as Record<string, unknown> }))
  await connected.ready
})
afterEach(async () => {
  client.close()
  await host.close()
  await app.dispose()
  await dirs.cleanup()
})

async function until<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('timed out')
}

describe('voice over the HTTP host', () => {
  it('voice.engines: espeak-ng here, OpenAI-compatible borrowed from the active provider', async () => {
    const { tts, stt } = await client.invoke('voice.engines')
    expect(tts.find((e) => e.id === 'espeak-ng')).toMatchObject({ available: true })
    expect(tts.find((e) => e.id === 'openai')).toMatchObject({
      available: true,
      endpoint: new URL(llm.baseUrl).host,
    })
    expect(stt.find((e) => e.id === 'openai')?.available).toBe(true)
  })

  it('voice.synthesize returns WAV bytes through the binary codec', async () => {
    const result = await client.invoke('voice.synthesize', {
      text: 'The totals are ready.',
      engine: 'espeak-ng',
    })
    expect(result.audio).toBeInstanceOf(Uint8Array)
    expect(parseWav(result.audio).durationMs).toBeGreaterThan(500)
    expect(result).toMatchObject({ mimeType: 'audio/wav', engine: 'espeak-ng' })
  })

  it('voice.transcribe uploads the recording bytes', async () => {
    llm.transcriptions.push({ text: 'Summarize the sales sheet.' })
    const audio = new Uint8Array(4096).map((_, i) => i % 251)
    const result = await client.invoke('voice.transcribe', { audio, mimeType: 'audio/webm;codecs=opus' })
    expect(result.text).toBe('Summarize the sales sheet.')
    expect(llm.requests.at(-1)?.upload?.size).toBe(4096)
  })

  it('voice.transcribe refuses an empty recording with a clear error', async () => {
    await expect(
      client.invoke('voice.transcribe', { audio: new Uint8Array(0), mimeType: 'audio/webm' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    })
  })

  it('voice.ask streams the answer as voice.delta and ends with voice.done; the conversation is listed', async () => {
    llm.push({ text: 'Sales rose in March. Costs stayed flat.' })
    const refs = await client.invoke('voice.ask', { text: 'How did March go?', attachments: [] })
    const done = await until(() =>
      events.find((e) => e.event === 'voice.done' && e.payload.askId === refs.askId),
    )
    const deltas = events.filter((e) => e.event === 'voice.delta').map((e) => e.payload.text)
    expect(deltas.length).toBeGreaterThan(1)
    expect(deltas.join('')).toBe('Sales rose in March. Costs stayed flat.')
    expect(done.payload.message).toMatchObject({
      status: 'done',
      text: 'Sales rose in March. Costs stayed flat.',
    })
    const list = await client.invoke('conversations.list')
    expect(list.map((c) => c.id)).toContain(refs.conversationId)
    const conversation = await client.invoke('conversations.get', { id: refs.conversationId })
    expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('voice.interrupt during a stream keeps the spoken part', async () => {
    llm.push({ text: 'First part is here. Second part follows later on.', stallAfterChunks: 4 })
    const refs = await client.invoke('voice.ask', { text: 'Tell me.', attachments: [] })
    await until(() => events.find((e) => e.event === 'voice.delta') ?? undefined)
    const result = await client.invoke('voice.interrupt', {
      conversationId: refs.conversationId,
      messageId: refs.assistantMessageId,
      spokenText: 'First part',
    })
    expect(result.interrupted).toBe(true)
    const conversation = await client.invoke('conversations.get', { id: refs.conversationId })
    expect(conversation.messages[1]).toMatchObject({ status: 'interrupted', spokenText: 'First part' })
    await llm.waitUntil(() =>
      llm.requests.some((r) => r.path === '/v1/chat/completions' && r.aborted === true),
    )
  })
})
