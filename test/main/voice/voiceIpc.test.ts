import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { type IpcHost, startIpcHost } from '../../support/ipcHost'
import { describeNeeding } from '../../support/requirements'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { stubEnv } from '../../support/stubEnv'
import { tempDirs } from '../../support/tempDir'

// The voice routes end to end over the HTTP host: binary payloads both ways, events over SSE, the
// real chatStream against the scripted model.
const TOKEN = 'voice-ipc-token'
const dirs = tempDirs('bureau-voice-ipc-')

let llm: ScriptedLlm
let running: IpcHost

beforeAll(async () => {
  llm = await startScriptedLlm()
  stubEnv(scriptedProviderEnv(llm, 'sk-voice-ipc'))
})
afterAll(async () => {
  vi.unstubAllEnvs()
  await llm.close()
})
beforeEach(async () => {
  llm.reset()
  running = await startIpcHost({
    dataDir: await dirs.make(),
    workspaceDir: await dirs.make(),
    token: TOKEN,
    events: ['voice.delta', 'voice.done'],
  })
})
afterEach(async () => {
  await running.stop()
  await dirs.cleanup()
})

describeNeeding(['espeak'], 'voiceIpc with espeak-ng', () => {
  describe('voice over the HTTP host', () => {
    it('voice.engines: espeak-ng here, OpenAI-compatible borrowed from the active provider', async () => {
      const { tts, stt } = await running.client.invoke('voice.engines')
      expect(tts.find((e) => e.id === 'espeak-ng')).toMatchObject({ available: true })
      expect(tts.find((e) => e.id === 'openai')).toMatchObject({
        available: true,
        endpoint: new URL(llm.baseUrl).host,
      })
      expect(stt.find((e) => e.id === 'openai')?.available).toBe(true)
    })

    it('voice.synthesize returns WAV bytes through the binary codec', async () => {
      const result = await running.client.invoke('voice.synthesize', {
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
      const result = await running.client.invoke('voice.transcribe', {
        audio,
        mimeType: 'audio/webm;codecs=opus',
      })
      expect(result.text).toBe('Summarize the sales sheet.')
      expect(llm.requests.at(-1)?.upload?.size).toBe(4096)
    })

    it('voice.transcribe refuses an empty recording with a clear error', async () => {
      await expect(
        running.client.invoke('voice.transcribe', { audio: new Uint8Array(0), mimeType: 'audio/webm' }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      })
    })

    it('voice.ask streams the answer as voice.delta and ends with voice.done; the conversation is listed', async () => {
      llm.push({ text: 'Sales rose in March. Costs stayed flat.' })
      const refs = await running.client.invoke('voice.ask', { text: 'How did March go?', attachments: [] })
      const done = await running.waitForEvent(
        (e) => e.event === 'voice.done' && e.payload.askId === refs.askId,
      )
      const deltas = running.events.filter((e) => e.event === 'voice.delta').map((e) => e.payload.text)
      expect(deltas.length).toBeGreaterThan(1)
      expect(deltas.join('')).toBe('Sales rose in March. Costs stayed flat.')
      expect(done.payload.message).toMatchObject({
        status: 'done',
        text: 'Sales rose in March. Costs stayed flat.',
      })
      const list = await running.client.invoke('conversations.list')
      expect(list.map((c) => c.id)).toContain(refs.conversationId)
      const conversation = await running.client.invoke('conversations.get', { id: refs.conversationId })
      expect(conversation.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
    })

    it('voice.interrupt during a stream keeps the spoken part', async () => {
      llm.push({ text: 'First part is here. Second part follows later on.', stallAfterChunks: 4 })
      const refs = await running.client.invoke('voice.ask', { text: 'Tell me.', attachments: [] })
      await running.waitForEvent((e) => e.event === 'voice.delta')
      const result = await running.client.invoke('voice.interrupt', {
        conversationId: refs.conversationId,
        messageId: refs.assistantMessageId,
        spokenText: 'First part',
      })
      expect(result.interrupted).toBe(true)
      const conversation = await running.client.invoke('conversations.get', { id: refs.conversationId })
      expect(conversation.messages[1]).toMatchObject({ status: 'interrupted', spokenText: 'First part' })
      await llm.waitUntil(() =>
        llm.requests.some((r) => r.path === '/v1/chat/completions' && r.aborted === true),
      )
    })
  })
})
