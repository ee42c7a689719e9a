import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Converter, createAppConverter, type VisionMode } from '../../../src/main/convert'
import type { OcrEngine } from '../../../src/main/convert/types'
import { TRANSCRIBE_INSTRUCTIONS } from '../../../src/main/convert/vision/providerVision'
import { createLlmClient, type LlmClient } from '../../../src/main/llm'
import type { ResolvedProvider } from '../../../src/main/llm/types'
import { AppError } from '../../../src/shared/errors'
import { type RecordedRequest, type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProvider } from '../../support/scriptedProvider'
import { tempDirs } from '../../support/tempDir'
import { core } from './corpus'

let llm: ScriptedLlm
const dirs = tempDirs('bureau-convert-vision-')
const converters: Converter[] = []

beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(async () => {
  for (const converter of converters) await converter.dispose()
  await llm.close()
  await dirs.cleanup()
})
beforeEach(() => llm.reset())

function countingOcr(reply: string): OcrEngine & { calls: number } {
  const ocr = {
    calls: 0,
    recognize: async () => {
      ocr.calls++
      return reply
    },
    dispose: async () => {},
  }
  return ocr
}

/** The scripted server as an OpenAI-compatible provider; no retries, so a 500 fails at once. */
function client(extra: Partial<ResolvedProvider> = {}): LlmClient {
  return createLlmClient(
    scriptedProvider(llm, 'openai-compatible', {
      id: 'scripted',
      name: 'Scripted Vision',
      model: 'scripted-model',
      supportsVision: true,
      ...extra,
    }),
    { timeoutMs: 10_000, maxRetries: 0, sleep: async () => {} },
  )
}

function converter(options: {
  mode: () => VisionMode
  client?: () => Promise<LlmClient>
  ocr: OcrEngine
  cacheDir?: string
}): Converter {
  const made = createAppConverter({
    ocr: options.ocr,
    ...(options.cacheDir && { cacheDir: options.cacheDir }),
    vision: { mode: options.mode, client: options.client ?? (async () => client()) },
  })
  converters.push(made)
  return made
}

const image = () => ({ name: 'photos/receipt.jpg', bytes: core.file('scan.jpg') })

interface SentPart {
  type: string
  text?: string
  image_url?: { url: string }
}

/** The content parts of the last user message of a recorded OpenAI request. */
function userParts(request: RecordedRequest | undefined): SentPart[] {
  const body = request?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined
  const messages = body?.messages ?? []
  const content = messages.filter((m) => m.role === 'user').at(-1)?.content
  return Array.isArray(content) ? (content as SentPart[]) : [{ type: 'text', text: String(content) }]
}

describe('vision when the setting allows it and the provider reads images', () => {
  it('sends the image as a data: URI with the transcription instructions; the answer is the Markdown', async () => {
    llm.push({ text: '# Receipt\n\n| item | price |\n| --- | --- |\n| tea | 3.50 |' })
    const ocr = countingOcr('unused')
    const result = await converter({ mode: () => 'when-supported', ocr }).convert(image())
    expect(llm.requests).toHaveLength(1)
    const body = llm.requests[0]?.body as {
      model: string
      messages: Array<{ role: string; content: unknown }>
    }
    expect(body.model).toBe('scripted-model')
    expect(body.messages[0]).toEqual({ role: 'system', content: TRANSCRIBE_INSTRUCTIONS })
    const parts = userParts(llm.requests[0])
    expect(parts.find((p) => p.type === 'text')?.text).toBe('Transcribe "receipt.jpg".')
    const url = parts.find((p) => p.type === 'image_url')?.image_url?.url ?? ''
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true)
    expect(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').equals(Buffer.from(image().bytes))).toBe(
      true,
    )
    expect(result.format).toBe('image')
    expect(result.markdown).toContain('| tea | 3.50 |')
    expect(result.warnings).toEqual([])
    expect(ocr.calls).toBe(0)
  })

  it('keeps a transcription in the cache (by model): the same bytes do not go to the model twice', async () => {
    const cacheDir = await dirs.make()
    llm.push({ text: 'Transcribed once.' })
    const first = converter({ mode: () => 'when-supported', ocr: countingOcr('unused'), cacheDir })
    expect((await first.convert(image())).markdown).toContain('Transcribed once.')
    // A new converter on the same cache folder (an app restart) reads it from disk.
    const second = converter({ mode: () => 'when-supported', ocr: countingOcr('unused'), cacheDir })
    expect((await second.convert(image())).markdown).toContain('Transcribed once.')
    expect(llm.requests).toHaveLength(1)
    // Another model is another reader: it is asked.
    llm.push({ text: 'Read by the other model.' })
    const other = converter({
      mode: () => 'when-supported',
      client: async () => client({ model: 'other-model' }),
      ocr: countingOcr('unused'),
      cacheDir,
    })
    expect((await other.convert(image())).markdown).toContain('Read by the other model.')
    expect(llm.requests).toHaveLength(2)
  })

  it('an attachment (with a budget) and the toolset (without) share one transcription', async () => {
    llm.push({ text: `Long transcription. ${'word '.repeat(200)}` })
    const shared = converter({ mode: () => 'when-supported', ocr: countingOcr('unused') })
    const budgeted = await shared.convert(image(), { maxChars: 300 })
    expect(budgeted.truncated).toBe(true)
    expect(budgeted.markdown.length).toBeLessThanOrEqual(300)
    const whole = await shared.convert(image())
    expect(whole.truncated).toBe(false)
    expect(whole.markdown).toContain('Long transcription.')
    expect(whole.markdown.length).toBeGreaterThan(1000)
    expect(llm.requests).toHaveLength(1)
  })

  it('transcribes each page of a scanned PDF (PNG pages) and marks them as read by the model', async () => {
    llm.setResponder((info) => ({ text: `Model text for ${info.lastUserText.replace(/^Transcribe /, '')}` }))
    const ocr = countingOcr('unused')
    const result = await converter({ mode: () => 'when-supported', ocr }).convert({
      name: 'scan.pdf',
      bytes: core.file('scan.pdf'),
    })
    expect(llm.requests).toHaveLength(3)
    for (const request of llm.requests) {
      const url = userParts(request).find((p) => p.type === 'image_url')?.image_url?.url ?? ''
      expect(url.startsWith('data:image/png;base64,')).toBe(true)
    }
    expect(result.markdown).toContain(
      '*Page 2 read by the vision model:*\n\nModel text for "scan.pdf page 2.png".',
    )
    expect(ocr.calls).toBe(0)
  }, 60_000)

  it('follows the setting per conversion: off, then when-supported, without a new converter', async () => {
    let mode: VisionMode = 'off'
    const ocr = countingOcr('Words read by OCR')
    const shared = converter({ mode: () => mode, ocr })
    const offline = await shared.convert(image())
    expect(offline.markdown).toContain('Text recognised in the image (OCR):\n\nWords read by OCR')
    expect(llm.requests).toHaveLength(0)
    mode = 'when-supported'
    llm.push({ text: 'Now read by the model.' })
    expect((await shared.convert(image())).markdown).toContain('Now read by the model.')
    expect(llm.requests).toHaveLength(1)
  })
})

describe('OCR instead of the model', () => {
  it('vision off: OCR reads the image and nothing is sent to the provider', async () => {
    let asked = 0
    const ocr = countingOcr('Words read by OCR')
    const result = await converter({
      mode: () => 'off',
      client: async () => {
        asked++
        return client()
      },
      ocr,
    }).convert(image())
    expect(result.markdown).toContain('Words read by OCR')
    expect(result.warnings).toEqual([])
    expect(ocr.calls).toBe(1)
    expect(asked).toBe(0)
    expect(llm.requests).toHaveLength(0)
  })

  it('a provider without supportsVision: OCR, and a warning naming the provider and why', async () => {
    const ocr = countingOcr('Words read by OCR')
    const result = await converter({
      mode: () => 'when-supported',
      client: async () => client({ name: 'Local Llama', model: 'llama3.1', supportsVision: false }),
      ocr,
    }).convert(image())
    expect(result.markdown).toContain('Words read by OCR')
    expect(result.warnings).toEqual([
      'Local Llama (llama3.1) does not read images (its supportsVision is off); images and scanned pages were read with OCR instead',
    ])
    expect(llm.requests).toHaveLength(0)
  })

  it('a provider that cannot be set up: OCR, with its reason', async () => {
    const result = await converter({
      mode: () => 'when-supported',
      client: async () => {
        throw new AppError('UNAVAILABLE', 'No API key is set for OpenAI.')
      },
      ocr: countingOcr('Words read by OCR'),
    }).convert(image())
    expect(result.markdown).toContain('Words read by OCR')
    expect(result.warnings).toEqual([
      'the active provider cannot be used (No API key is set for OpenAI); images and scanned pages were read with OCR instead',
    ])
  })

  it('the model fails (HTTP 500): OCR with a warning, not cached, so the next conversion asks the model again', async () => {
    const cacheDir = await dirs.make()
    llm.push({ error: { status: 500, message: 'GPU on fire' } })
    const ocr = countingOcr('Words read by OCR')
    const shared = converter({ mode: () => 'when-supported', ocr, cacheDir })
    const failed = await shared.convert(image())
    expect(failed.markdown).toContain('Text recognised in the image (OCR):\n\nWords read by OCR')
    expect(failed.warnings).toHaveLength(1)
    expect(failed.warnings[0]).toMatch(
      /^the vision model could not describe the image \(.+\); used OCR instead$/,
    )
    expect(llm.requests).toHaveLength(1)

    llm.push({ text: 'The model is back.' })
    const again = await shared.convert(image())
    expect(llm.requests).toHaveLength(2)
    expect(again.markdown).toContain('The model is back.')
    expect(again.warnings).toEqual([])
    expect(ocr.calls).toBe(1)
  })
})
