import OpenAI, { toFile } from 'openai'
import { describe, expect, it } from 'vitest'
import {
  bodyOf,
  chatRequests,
  expectOpenAiError,
  servedBridgeSuite,
  startAbortableChat,
  statusOf,
} from './support'

// Limits and load on the real `bureau serve`, with small limits set by the serve flags.

const MAX_REQUEST = 4096
const MAX_FILE = 1024

const suite = servedBridgeSuite({
  tempPrefix: 'bureau-bridge-limits-',
  tokenName: 'limits',
  serveArgs: [
    '--bridge-max-concurrent',
    '1',
    '--bridge-max-queued',
    '1',
    '--bridge-max-request-bytes',
    String(MAX_REQUEST),
    '--bridge-max-file-bytes',
    String(MAX_FILE),
  ],
})

describe('413', () => {
  it('a request body over --bridge-max-request-bytes', async () => {
    const error = await suite.client.chat.completions
      .create({ model: 'bureau-agent', messages: [{ role: 'user', content: 'x'.repeat(MAX_REQUEST) }] })
      .catch((e: unknown) => e)
    expect(statusOf(error)).toBe(413)
    expect(expectOpenAiError(bodyOf(error)).code).toBe('request_too_large')
    expect(chatRequests(suite.llm)).toHaveLength(0)
  })

  it('a file over --bridge-max-file-bytes, and an inline file_data over it', async () => {
    const error = await suite.client.files
      .create({ file: await toFile(Buffer.alloc(MAX_FILE + 1, 65), 'big.txt'), purpose: 'user_data' })
      .catch((e: unknown) => e)
    expect(statusOf(error)).toBe(413)
    expect(expectOpenAiError(bodyOf(error))).toMatchObject({ code: 'file_too_large', param: 'file' })
    expect((await suite.client.files.list()).data).toHaveLength(0)

    const inline = await suite.client.chat.completions
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
    expect(statusOf(inline)).toBe(413)

    const small = await suite.client.files.create({
      file: await toFile(Buffer.alloc(MAX_FILE, 66), 'fits.txt'),
      purpose: 'user_data',
    })
    expect(small.bytes).toBe(MAX_FILE)
  })
})

describe('429 and the queue', () => {
  it('runs one at a time, queues one, refuses the next with 429 and Retry-After; a cancelled run frees its slot', async () => {
    suite.llm.push({ hang: true }, { text: 'Second answer.' })
    const first = await startAbortableChat(suite.client, suite.llm, 'first')

    // The only slot is taken: this one waits in the queue (no model request yet).
    const second = suite.client.chat.completions.create({
      model: 'bureau-chat',
      messages: [{ role: 'user', content: 'second' }],
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(chatRequests(suite.llm)).toHaveLength(1)

    const refused = await fetch(`${suite.serve.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bureau-chat', messages: [{ role: 'user', content: 'third' }] }),
    })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(expectOpenAiError(await refused.json())).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
    })

    // The first client gives up: its model request is aborted and the queued one runs.
    first.controller.abort()
    expect(await first.outcome).toBeInstanceOf(OpenAI.APIUserAbortError)
    const answer = await second
    expect(answer.choices[0]?.message.content).toBe('Second answer.')
    expect(suite.llm.requests[0]?.aborted).toBe(true)
    expect(chatRequests(suite.llm)).toHaveLength(2)
  })
})
