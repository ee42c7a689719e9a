import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { resolveAudioEndpoint } from '../../../src/main/voice/openai/audioEndpoint'
import { createOpenAiSpeechEngine, createOpenAiTranscriber } from '../../../src/main/voice/openai/openaiAudio'
import { parseWav } from '../../../src/main/voice/wav/wavFile'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { settingsStub } from './settingsStub'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const endpoint =
  (overrides: Record<string, unknown> = {}) =>
  async () => ({
    baseUrl: llm.baseUrl,
    apiKey: 'sk-voice-test',
    model: 'tts-scripted',
    host: new URL(llm.baseUrl).host,
    source: 'settings' as const,
    ...overrides,
  })

describe('OpenAI-compatible speech', () => {
  it('asks /v1/audio/speech for WAV with the model, voice, text and speed, and returns the audio', async () => {
    const engine = createOpenAiSpeechEngine({ endpoint: endpoint() })
    const { audio, mimeType } = await engine.synthesize({
      text: 'Hello there, how are you?',
      voice: 'nova',
      rate: 1.5,
    })
    expect(mimeType).toBe('audio/wav')
    expect(parseWav(audio).durationMs).toBeCloseTo(25 * 60, -1)
    const request = llm.requests[0]
    expect(request?.path).toBe('/v1/audio/speech')
    expect(request?.headers.authorization).toBe('Bearer sk-voice-test')
    expect(request?.body).toMatchObject({
      model: 'tts-scripted',
      voice: 'nova',
      input: 'Hello there, how are you?',
      response_format: 'wav',
      speed: 1.5,
    })
  })

  it('uses the default voice and sends no speed at the normal rate', async () => {
    const engine = createOpenAiSpeechEngine({ endpoint: endpoint() })
    await engine.synthesize({ text: 'Hi.' })
    expect(llm.requests[0]?.body).toMatchObject({ voice: 'alloy' })
    expect(llm.requests[0]?.body).not.toHaveProperty('speed')
  })

  it('turns a rejected key into an actionable error that names the host, not a stack', async () => {
    llm.speech.push({ error: { status: 401 } })
    const engine = createOpenAiSpeechEngine({ endpoint: endpoint() })
    const failure = engine.synthesize({ text: 'Hi.' })
    await expect(failure).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(failure).rejects.toThrow(/rejected the API key.*Settings > Voice/)
  })

  it('says when the service cannot be reached', async () => {
    const engine = createOpenAiSpeechEngine({
      endpoint: endpoint({ baseUrl: 'http://127.0.0.1:9/v1', host: '127.0.0.1:9' }),
    })
    await expect(engine.synthesize({ text: 'Hi.' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('Cannot reach the speech service at 127.0.0.1:9'),
    })
  })

  it('stops a slow synthesis when the signal aborts', async () => {
    llm.speech.push({ hang: true })
    const engine = createOpenAiSpeechEngine({ endpoint: endpoint() })
    const controller = new AbortController()
    const pending = engine.synthesize({ text: 'Hi.' }, controller.signal)
    await llm.waitForRequests(1)
    controller.abort()
    await expect(pending).rejects.toMatchObject({ code: 'CANCELLED' })
    await llm.waitUntil(() => llm.requests[0]?.aborted === true)
  })
})

describe('OpenAI-compatible transcription', () => {
  it('uploads the recording as multipart with a fitting file name and returns the text', async () => {
    llm.transcriptions.push({ text: ' What were the sales in March? ' })
    const stt = createOpenAiTranscriber({ endpoint: endpoint({ model: 'whisper-scripted' }) })
    const audio = new Uint8Array(2048).fill(7)
    const text = await stt.transcribe({ audio, mimeType: 'audio/webm;codecs=opus', language: 'en' })
    expect(text).toBe('What were the sales in March?')
    const request = llm.requests[0]
    expect(request?.path).toBe('/v1/audio/transcriptions')
    expect(request?.upload).toMatchObject({ fileName: 'speech.webm', contentType: 'audio/webm', size: 2048 })
    expect(request?.body).toMatchObject({ model: 'whisper-scripted', language: 'en' })
  })

  it('reports a failed transcription with the reason', async () => {
    llm.transcriptions.push({ error: { status: 404 } })
    const stt = createOpenAiTranscriber({ endpoint: endpoint() })
    await expect(stt.transcribe({ audio: new Uint8Array(10), mimeType: 'audio/wav' })).rejects.toThrow(
      /no \/audio\/transcriptions endpoint or model \(404\)/,
    )
  })
})

describe('audio endpoint', () => {
  const provider = async () => ({
    kind: 'openai-compatible',
    name: 'OpenAI',
    baseUrl: 'https://api.example.com/v1',
    apiKey: 'sk-provider',
  })

  it('uses the Voice settings first, with their own key', async () => {
    const settings = settingsStub(
      { tts: { baseUrl: 'http://127.0.0.1:8000/v1/', model: 'kokoro' } },
      { 'voice.tts.apiKey': 'sk-own' },
    )
    expect(await resolveAudioEndpoint('tts', { settings, provider })).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-own',
      model: 'kokoro',
      host: '127.0.0.1:8000',
      source: 'settings',
    })
  })

  it('borrows the active OpenAI-compatible provider and its key, with default models', async () => {
    const settings = settingsStub()
    expect(await resolveAudioEndpoint('stt', { settings, provider })).toMatchObject({
      baseUrl: 'https://api.example.com/v1',
      apiKey: 'sk-provider',
      model: 'whisper-1',
      source: 'provider',
    })
  })

  it('says what to set when there is neither', async () => {
    const settings = settingsStub()
    const ollama = async () => ({ kind: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434' })
    await expect(resolveAudioEndpoint('tts', { settings, provider: ollama })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('Settings > Voice'),
    })
  })
})
