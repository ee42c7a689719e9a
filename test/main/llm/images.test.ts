import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { estimateMessagesTokens } from '../../../src/main/llm/history/estimateTokens'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { KINDS, scriptedClient } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

// The 8-byte PNG signature plus a few bytes: the server records it, nothing decodes it.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250])
const pngBase64 = Buffer.from(png).toString('base64')
const withImage = (mimeType = 'image/png') => ({
  messages: [
    { role: 'system' as const, content: 'Transcribe faithfully.' },
    { role: 'user' as const, content: 'What does it say?', images: [{ mimeType, data: png }] },
  ],
})

function lastUserMessage(): Record<string, unknown> {
  const body = llm.requests.at(-1)?.body as { messages: Array<Record<string, unknown>> }
  return body.messages.filter((m) => m.role === 'user').at(-1) ?? {}
}

describe('images in a user message', () => {
  it('openai-compatible: content parts with the text and an image_url data URI', async () => {
    llm.push({ text: 'It says hello.' })
    const result = await scriptedClient(llm, 'openai-compatible', { supportsVision: true }).chat(withImage())
    expect(result.message.content).toBe('It says hello.')
    expect(lastUserMessage()).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What does it say?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
      ],
    })
  })

  it('anthropic: an image block (base64 source) before the text block', async () => {
    llm.push({ text: 'It says hello.' })
    await scriptedClient(llm, 'anthropic', { supportsVision: true }).chat(withImage('image/webp'))
    expect(lastUserMessage()).toEqual({
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: pngBase64 } },
        { type: 'text', text: 'What does it say?' },
      ],
    })
  })

  it('ollama: the text as content and the image in images as base64', async () => {
    llm.push({ text: 'It says hello.' })
    await scriptedClient(llm, 'ollama', { supportsVision: true }).chat(withImage('image/jpeg'))
    expect(lastUserMessage()).toEqual({ role: 'user', content: 'What does it say?', images: [pngBase64] })
  })

  it.each(KINDS)('%s: a message without images keeps its plain string content', async (kind) => {
    llm.push({ text: 'ok' })
    await scriptedClient(llm, kind, { supportsVision: true }).chat({
      messages: [{ role: 'user', content: 'plain', images: [] }],
    })
    const message = lastUserMessage()
    expect(message.images).toBeUndefined()
    expect(message.content).toEqual(kind === 'anthropic' ? [{ type: 'text', text: 'plain' }] : 'plain')
  })

  it.each(KINDS)('%s without supportsVision refuses images before sending anything', async (kind) => {
    const client = scriptedClient(llm, kind)
    await expect(client.chat(withImage())).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining('does not accept images'),
    })
    expect(llm.requests).toHaveLength(0)
  })

  it.each(KINDS)('%s refuses an image type its API does not take (TIFF)', async (kind) => {
    const client = scriptedClient(llm, kind, { supportsVision: true })
    await expect(client.chat(withImage('image/tiff'))).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining('image/tiff'),
    })
    expect(llm.requests).toHaveLength(0)
  })

  it('counts an image in the token estimate', () => {
    const text = estimateMessagesTokens([{ role: 'user', content: 'What does it say?' }])
    const image = estimateMessagesTokens(withImage().messages.slice(1))
    expect(image - text).toBeGreaterThanOrEqual(1_000)
  })
})
