import { createServer } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLlmClient } from '../../../src/main/llm'
import { AppError } from '../../../src/shared/errors'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProvider } from '../../support/scriptedProvider'
import { collect, KINDS, scriptedClient, testClientOptions } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const SECRET = 'sk-scripted-secret-0123456789'

/** Chat requests only (Ollama clients also ask /api/show for the context window). */
const chats = () => llm.requests.filter((r) => r.endpoint !== 'ollama.show')
const user = { messages: [{ role: 'user' as const, content: 'hello' }] }

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AppError)
  const appError = error as AppError
  expect(appError.message).not.toContain(SECRET)
  expect(appError.stack ?? '').not.toContain(SECRET)
  return appError
}

/** A port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe.each(KINDS)('%s errors a user understands', (kind) => {
  it('401: bad key, no retry, the key never echoed', async () => {
    llm.push({ error: { status: 401, message: `Incorrect API key provided: ${SECRET}.` } })
    const error = await failure(scriptedClient(llm, kind).chat(user))
    expect(error.code).toBe('UNAUTHORIZED')
    expect(error.message).toMatch(/rejected the API key/)
    // The client's own error stays behind it as cause (for logs), and off the wire.
    expect(error.cause).toBeInstanceOf(Error)
    expect(error.toPayload()).not.toHaveProperty('cause')
    expect(chats()).toHaveLength(1)
  })

  it('404: model not found names the model', async () => {
    llm.push({ error: { status: 404 } })
    const error = await failure(scriptedClient(llm, kind, { model: 'no-such-model' }).chat(user))
    expect(error.code).toBe('NOT_FOUND')
    expect(error.message).toContain('"no-such-model"')
    if (kind === 'ollama') expect(error.message).toContain('ollama pull no-such-model')
  })

  it('400 context too long becomes TOO_LARGE', async () => {
    llm.push({
      error: {
        status: 400,
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9100 tokens.",
      },
    })
    const error = await failure(scriptedClient(llm, kind, { contextWindow: 8192 }).chat(user))
    expect(error.code).toBe('TOO_LARGE')
    expect(error.message).toContain('context window')
  })

  it('429 then success: retried after exactly the Retry-After the server sent', async () => {
    llm.push({ error: { status: 429, retryAfterSeconds: 2 } }, { text: 'fine now' })
    const { options, sleeps } = testClientOptions()
    const client = createLlmClient(scriptedProvider(llm, kind), options)
    const result = await client.chat(user)
    expect(result.message.content).toBe('fine now')
    expect(sleeps).toEqual([2000])
    expect(chats()).toHaveLength(2)
  })

  it('429 with a Retry-After above the cap is not waited for', async () => {
    llm.push({ error: { status: 429, retryAfterSeconds: 120 } })
    const { options, sleeps } = testClientOptions({ retryAfterCapMs: 30_000 })
    const error = await failure(createLlmClient(scriptedProvider(llm, kind), options).chat(user))
    expect(error.code).toBe('RATE_LIMITED')
    expect(error.message).toContain('Try again in 120 s')
    expect(sleeps).toEqual([])
    expect(chats()).toHaveLength(1)
  })

  it('500 three times: backoff grows, then UNAVAILABLE after maxRetries', async () => {
    llm.push({ error: { status: 500 } }, { error: { status: 503 } }, { error: { status: 500 } })
    const { options, sleeps } = testClientOptions({ maxRetries: 2, backoffBaseMs: 1000 })
    const error = await failure(createLlmClient(scriptedProvider(llm, kind), options).chat(user))
    expect(error.code).toBe('UNAVAILABLE')
    expect(error.message).toMatch(/server error \(500/)
    expect(sleeps).toEqual([1000, 2000])
    expect(chats()).toHaveLength(3)
  })

  it('malformed JSON in the stream: retried, then a clear error', async () => {
    llm.push({ malformed: 'json' }, { malformed: 'json' })
    const { options } = testClientOptions({ maxRetries: 1 })
    const error = await failure(createLlmClient(scriptedProvider(llm, kind), options).chat(user))
    expect(error.code).toBe('UNAVAILABLE')
    expect(error.message).toMatch(/could not read|cut off/)
    expect(error.cause).toBeInstanceOf(Error)
    expect(chats()).toHaveLength(2)
  })

  it('a stream cut off mid-way after text was shown is not retried (no duplicate output)', async () => {
    llm.push({ malformed: 'sse', text: 'alpha beta gamma delta epsilon zeta' })
    const events: string[] = []
    const error = await failure(
      (async () => {
        for await (const event of scriptedClient(llm, kind).stream(user))
          if (event.type === 'text') events.push(event.text)
      })(),
    )
    expect(error.code).toBe('UNAVAILABLE')
    expect(events.length).toBeGreaterThan(0)
    expect(chats()).toHaveLength(1)
    // Part of the answer arrived: not "cannot reach", but how much came before the cut.
    const words = events.join('').split(/\s+/).filter(Boolean).length
    expect(error.message).toMatch(new RegExp(`connection to .+ was lost after ${words} words?`))
    expect(error.message).not.toMatch(/cannot reach/i)
  })

  it('timeout: a server that never answers is given up on and the request really closed', async () => {
    llm.push({ hang: true })
    const { options } = testClientOptions({ timeoutMs: 300, maxRetries: 0 })
    const error = await failure(createLlmClient(scriptedProvider(llm, kind), options).chat(user))
    expect(error.code).toBe('TIMEOUT')
    expect(error.message).toMatch(/did not answer for 0 s|did not answer/)
    await llm.waitUntil(() => chats()[0]?.aborted === true)
  })

  it('timeout mid-stream: a stalled stream ends with TIMEOUT', async () => {
    llm.push({ text: 'one two three four five', stallAfterChunks: 2 })
    const { options } = testClientOptions({ timeoutMs: 300 })
    const error = await failure(collect(createLlmClient(scriptedProvider(llm, kind), options).stream(user)))
    expect(error.code).toBe('TIMEOUT')
    await llm.waitUntil(() => chats()[0]?.aborted === true)
    expect(chats()).toHaveLength(1)
  })

  it('cancellation through the signal mid-stream stops the request', async () => {
    llm.push({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 40 })
    const controller = new AbortController()
    const seen: string[] = []
    const error = await failure(
      (async () => {
        for await (const event of scriptedClient(llm, kind).stream({ ...user, signal: controller.signal })) {
          if (event.type === 'text') {
            seen.push(event.text)
            if (seen.length === 2) controller.abort()
          }
        }
      })(),
    )
    expect(error.code).toBe('CANCELLED')
    expect(seen.length).toBeLessThan(16)
    await llm.waitUntil(() => chats()[0]?.aborted === true)
    expect(chats()[0]?.finished).toBe(false)
  })

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await failure(scriptedClient(llm, kind).chat({ ...user, signal: controller.signal }))
    expect(error.code).toBe('CANCELLED')
    expect(chats()).toHaveLength(0)
  })

  it('unreachable server: says where it looked', async () => {
    const port = await closedPort()
    const base = kind === 'ollama' ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`
    const error = await failure(scriptedClient(llm, kind, { baseUrl: base }).chat(user))
    expect(error.code).toBe('UNAVAILABLE')
    expect(error.message).toContain(`http://127.0.0.1:${port}`)
    if (kind === 'ollama') expect(error.message).toContain(`Is Ollama running at http://127.0.0.1:${port}?`)
  })
})

describe('keys', () => {
  it('a provider that names a key variable but has no key fails before any request', async () => {
    const client = scriptedClient(llm, 'openai-compatible', {
      apiKey: undefined,
      apiKeyEnv: 'DEEPSEEK_API_KEY',
      name: 'DeepSeek',
    })
    const error = await failure(client.chat(user))
    expect(error.code).toBe('UNAUTHORIZED')
    expect(error.message).toContain('DEEPSEEK_API_KEY')
    expect(chats()).toHaveLength(0)
  })

  it('the key goes in the header only, and never into logs', async () => {
    const lines: string[] = []
    const logger = (await import('../../../src/main/platform')).createLogger({
      level: 'debug',
      write: (line) => lines.push(line),
    })
    llm.push({ error: { status: 500, message: `upstream said ${SECRET}` } }, { text: 'ok' })
    const { options } = testClientOptions({ logger })
    await createLlmClient(scriptedProvider(llm, 'openai-compatible'), options).chat(user)
    expect(llm.requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`)
    expect(llm.requests[0]?.rawBody).not.toContain(SECRET)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(SECRET)
  })
})
