import OpenAI, { toFile } from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { assertBuilt } from '../../support/builtCli'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { tempDirs } from '../../support/tempDir'
import {
  chatRequests,
  createTokenWithCli,
  expectOpenAiError,
  llmEnv,
  openAiClient,
  type RunningServe,
  startServe,
} from './support'

// Limits and load on the real `bureau serve`, with small limits set by the serve flags.

const dirs = tempDirs('bureau-bridge-limits-')
let llm: ScriptedLlm
let serve: RunningServe
let client: OpenAI
let token: string

const MAX_REQUEST = 4096
const MAX_FILE = 1024

beforeAll(async () => {
  assertBuilt()
  llm = await startScriptedLlm()
  const dataDir = await dirs.make()
  token = await createTokenWithCli(dataDir, 'limits')
  serve = await startServe(
    [
      '--data-dir',
      dataDir,
      '--workspace',
      await dirs.make(),
      '--bridge-max-concurrent',
      '1',
      '--bridge-max-queued',
      '1',
      '--bridge-max-request-bytes',
      String(MAX_REQUEST),
      '--bridge-max-file-bytes',
      String(MAX_FILE),
    ],
    llmEnv(llm),
  )
  client = openAiClient(serve.url, token)
}, 60_000)

afterAll(async () => {
  await serve?.stop()
  await llm?.close()
  await dirs.cleanup()
})

beforeEach(() => llm.reset())

const bodyOf = (error: unknown) => ({ error: (error as InstanceType<typeof OpenAI.APIError>).error })

describe('413', () => {
  it('a request body over --bridge-max-request-bytes', async () => {
    const error = await client.chat.completions
      .create({ model: 'bureau-agent', messages: [{ role: 'user', content: 'x'.repeat(MAX_REQUEST) }] })
      .catch((e: unknown) => e)
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413)
    expect(expectOpenAiError(bodyOf(error)).code).toBe('request_too_large')
    expect(chatRequests(llm)).toHaveLength(0)
  })

  it('a file over --bridge-max-file-bytes, and an inline file_data over it', async () => {
    const error = await client.files
      .create({ file: await toFile(Buffer.alloc(MAX_FILE + 1, 65), 'big.txt'), purpose: 'user_data' })
      .catch((e: unknown) => e)
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(413)
    expect(expectOpenAiError(bodyOf(error))).toMatchObject({ code: 'file_too_large', param: 'file' })
    expect((await client.files.list()).data).toHaveLength(0)

    const inline = await client.chat.completions
      .create({
        model: 'bureau-agent',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Read it.' },
              {
                type: 'file',
                file: {
                  filename: 'big.txt',
                  file_data: `data:text/plain;base64,${Buffer.alloc(MAX_FILE + 1, 65).toString('base64')}`,
                },
              },
            ],
          },
        ],
      })
      .catch((e: unknown) => e)
    expect((inline as InstanceType<typeof OpenAI.APIError>).status).toBe(413)

    const small = await client.files.create({
      file: await toFile(Buffer.alloc(MAX_FILE, 66), 'fits.txt'),
      purpose: 'user_data',
    })
    expect(small.bytes).toBe(MAX_FILE)
  })
})

describe('429 and the queue', () => {
  it('runs one at a time, queues one, refuses the next with 429 and Retry-After; a cancelled run frees its slot', async () => {
    llm.push({ hang: true }, { text: 'Second answer.' })
    const controller = new AbortController()
    const first = client.chat.completions
      .create(
        { model: 'bureau-chat', messages: [{ role: 'user', content: 'first' }] },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e)
    await llm.waitForRequests(1, { timeoutMs: 10_000 })

    // The only slot is taken: this one waits in the queue (no model request yet).
    const second = client.chat.completions.create({
      model: 'bureau-chat',
      messages: [{ role: 'user', content: 'second' }],
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(chatRequests(llm)).toHaveLength(1)

    const refused = await fetch(`${serve.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bureau-chat', messages: [{ role: 'user', content: 'third' }] }),
    })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(expectOpenAiError(await refused.json())).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
    })

    // The first client gives up: its model request is aborted and the queued one runs.
    controller.abort()
    expect(await first).toBeInstanceOf(OpenAI.APIUserAbortError)
    const answer = await second
    expect(answer.choices[0]?.message.content).toBe('Second answer.')
    expect(llm.requests[0]?.aborted).toBe(true)
    expect(chatRequests(llm)).toHaveLength(2)
  })
})
