import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import OpenAI, { toFile } from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { describe, expect, it } from 'vitest'
import { parseSseEvents } from '../../support/scriptedLlm'
import {
  bodyOf,
  chatRequests,
  expectOpenAiError,
  messageText,
  openAiClient,
  servedBridgeSuite,
  startAbortableChat,
} from './support'

// The main flows against the real built `bureau serve`, driven by the official `openai` client.

const UI_TOKEN = 'ui-token-not-for-v1'
const suite = servedBridgeSuite({
  tempPrefix: 'bureau-bridge-serve-',
  tokenName: 'suite',
  serveArgs: ['--token', UI_TOKEN],
})

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const chunks: ChatCompletionChunk[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

const joined = (chunks: ChatCompletionChunk[]) =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')

describe('GET /v1/models', () => {
  it('lists bureau-agent, bureau-chat and one bureau-<toolset> per registered toolset', async () => {
    const models = await suite.client.models.list()
    const ids = models.data.map((m) => m.id)
    expect(ids.slice(0, 2)).toEqual(['bureau-agent', 'bureau-chat'])
    expect(ids).toContain('bureau-files')
    expect(ids).toContain('bureau-history')
    for (const model of models.data) expect(model).toMatchObject({ object: 'model', owned_by: 'bureau' })
    expect((await suite.client.models.retrieve('bureau-files')).id).toBe('bureau-files')
  })
})

describe('POST /v1/chat/completions', () => {
  const TEXT = 'The total is 42, counted twice.'

  it('streams the same text as the non-stream answer: role first, one finish_reason, usage chunk, [DONE]', async () => {
    suite.llm.push({ text: TEXT }, { text: TEXT })
    const messages = [{ role: 'user' as const, content: 'Count the items.' }]
    const whole = await suite.client.chat.completions.create({ model: 'bureau-agent', messages })
    const chunks = await collect(
      await suite.client.chat.completions.create({
        model: 'bureau-agent',
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    )

    expect(whole.object).toBe('chat.completion')
    expect(whole.choices).toHaveLength(1)
    expect(whole.choices[0]?.message).toMatchObject({ role: 'assistant', content: TEXT })
    expect(whole.choices[0]?.finish_reason).toBe('stop')

    expect(joined(chunks)).toBe(whole.choices[0]?.message.content)
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant')
    const finishes = chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)
    expect(finishes).toEqual(['stop'])
    const last = chunks.at(-1)
    expect(last?.choices).toEqual([])
    expect(last?.usage?.total_tokens).toBe(
      (last?.usage?.prompt_tokens ?? 0) + (last?.usage?.completion_tokens ?? 0),
    )
    expect(last?.usage?.completion_tokens).toBeGreaterThan(0)
    // Same request, same model output: the usage of both forms agrees.
    expect(last?.usage).toEqual(whole.usage)
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk).toHaveProperty('usage', null)
      expect(chunk.object).toBe('chat.completion.chunk')
      expect(chunk.id).toBe(chunks[0]?.id)
    }
    // The task reached the model as the last user message.
    const sent = chatRequests(suite.llm)
    expect(sent).toHaveLength(2)
    expect(messageText(sent[1]?.messages.at(-1))).toContain('Count the items.')
  })

  it('sends the raw SSE frames exactly as OpenAI: data lines, no usage key without include_usage, data: [DONE]', async () => {
    suite.llm.push({ text: 'One two three.' })
    const response = await fetch(`${suite.serve.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'bureau-chat',
        stream: true,
        messages: [{ role: 'user', content: 'Count to three.' }],
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const body = await response.text()
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true)
    const events = parseSseEvents(body)
    expect(events.at(-1)?.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as ChatCompletionChunk)
    expect(chunks.every((c) => !('usage' in c))).toBe(true)
    expect(joined(chunks)).toBe('One two three.')
    expect(chunks.filter((c) => c.choices[0]?.finish_reason).length).toBe(1)
  })

  it('makes earlier messages the conversation and the last user message the task', async () => {
    suite.llm.push({ text: 'Paris, as before.' })
    const answer = await suite.client.chat.completions.create({
      model: 'bureau-agent',
      messages: [
        { role: 'system', content: 'Answer in one short sentence.' },
        { role: 'user', content: 'What is the capital of France?' },
        { role: 'assistant', content: 'Paris.' },
        { role: 'user', content: [{ type: 'text', text: 'And again?' }] },
      ],
    })
    expect(answer.choices[0]?.message.content).toBe('Paris, as before.')
    const sent = chatRequests(suite.llm)[0]?.messages ?? []
    const turns = sent.filter((m) => m.role !== 'system').map((m) => [m.role, messageText(m)])
    expect(turns.slice(-3, -1)).toEqual([
      ['user', 'What is the capital of France?'],
      ['assistant', 'Paris.'],
    ])
    const task = messageText(sent.at(-1))
    expect(task).toContain('Answer in one short sentence.')
    expect(task).toContain('And again?')
  })
})

describe('/v1/files', () => {
  it('upload -> chat that uses the file -> the answer has its content; list, get, content, delete', async () => {
    const content = 'Quarterly revenue: 1,234,567 EUR (Q3 2025).'
    const uploaded = await suite.client.files.create({
      file: await toFile(Buffer.from(content), 'revenue.txt'),
      purpose: 'user_data',
    })
    expect(uploaded).toMatchObject({ object: 'file', filename: 'revenue.txt', purpose: 'user_data' })
    expect(uploaded.bytes).toBe(Buffer.byteLength(content))
    expect((await suite.client.files.list()).data.map((f) => f.id)).toContain(uploaded.id)
    expect(await suite.client.files.retrieve(uploaded.id)).toMatchObject({
      id: uploaded.id,
      filename: 'revenue.txt',
    })
    expect(await (await suite.client.files.content(uploaded.id)).text()).toBe(content)

    // The model answers with what it was given, so the answer shows the file reached it.
    suite.llm.setResponder((info) => {
      const seen = JSON.stringify(info.messages)
      const figure = /revenue: ([\d,]+ EUR)/.exec(seen)?.[1]
      return { text: figure ? `Revenue was ${figure}.` : 'I did not get the file.' }
    })
    const answer = await suite.client.chat.completions.create({
      model: 'bureau-agent',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What was the revenue?' },
            { type: 'file', file: { file_id: uploaded.id } },
          ],
        },
      ],
    })
    // A notice (e.g. the file could not be converted) would explain a failure here.
    const notices = (answer as typeof answer & { bureau_notices?: string[] }).bureau_notices
    expect(answer.choices[0]?.message.content, JSON.stringify(notices)).toBe('Revenue was 1,234,567 EUR.')
    const task = messageText(chatRequests(suite.llm)[0]?.messages.at(-1))
    expect(task).toContain('What was the revenue?')
    expect(task).toContain('revenue.txt')
    expect(task).toContain(content)
    // The agent also saved it into the workspace inbox, so tools can edit it.
    expect(await readFile(join(suite.workspace, 'inbox', 'revenue.txt'), 'utf8')).toBe(content)

    expect(await suite.client.files.delete(uploaded.id)).toEqual({
      id: uploaded.id,
      object: 'file',
      deleted: true,
    })
    const gone = await suite.client.files.retrieve(uploaded.id).catch((error: unknown) => error)
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError)
    expectOpenAiError(bodyOf(gone))
  })

  it('a tool-using task streams bureau_step chunks and its result file is downloadable', async () => {
    const report = '# Summary\n\nAll 3 invoices are paid.\n'
    suite.llm.push(
      {
        text: 'Writing the summary.',
        toolCalls: [{ name: 'files_write_text', arguments: { path: '/out/summary.md', content: report } }],
      },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'The summary is ready.', attachments: ['/out/summary.md'] } },
        ],
      },
    )
    const chunks = await collect(
      await suite.client.chat.completions.create({
        model: 'bureau-files',
        messages: [{ role: 'user', content: 'Summarise the invoices into /out/summary.md' }],
        stream: true,
      }),
    )
    // bureau-files offers only the files toolset (and done) to the model.
    const tools = chatRequests(suite.llm)[0]?.tools?.map((t) => t.function.name) ?? []
    expect(tools).toContain('files_write_text')
    expect(tools).toContain('done')
    expect(tools.every((name) => name === 'done' || name.startsWith('files_'))).toBe(true)

    const steps = chunks.flatMap((c) => {
      const step = (c as ChatCompletionChunk & { bureau_step?: Record<string, unknown> }).bureau_step
      return step ? [step] : []
    })
    expect(steps).toContainEqual(
      expect.objectContaining({ phase: 'finished', method: 'files.write_text', status: 'ok' }),
    )
    const text = joined(chunks)
    expect(text).toContain('The summary is ready.')
    const link =
      /- \[summary\.md\]\((http:\/\/127\.0\.0\.1:\d+\/v1\/files\/(file-[0-9a-f]+)\/content)\)$/.exec(text)
    expect(link).not.toBeNull()
    const [, url = '', fileId = ''] = link ?? []
    const download = await fetch(url, { headers: { authorization: `Bearer ${suite.token}` } })
    expect(download.status).toBe(200)
    expect(download.headers.get('content-disposition')).toContain('summary.md')
    expect(await download.text()).toBe(report)
    expect(await (await suite.client.files.content(fileId)).text()).toBe(report)
    expect(await suite.client.files.retrieve(fileId)).toMatchObject({
      purpose: 'assistants_output',
      filename: 'summary.md',
    })
    expect(await readFile(join(suite.workspace, 'out', 'summary.md'), 'utf8')).toBe(report)
    expect((await fetch(url)).status).toBe(401)
  })
})

describe('errors in OpenAI shape', () => {
  it('401 for a missing key, a wrong key and the UI token', async () => {
    const missing = await fetch(`${suite.serve.url}/v1/models`)
    expect(missing.status).toBe(401)
    expect(expectOpenAiError(await missing.json()).code).toBe('missing_api_key')

    for (const key of ['bureau-suite.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'sk-wrong', UI_TOKEN]) {
      const error = await openAiClient(suite.serve.url, key)
        .models.list()
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
      const body = expectOpenAiError(bodyOf(error))
      expect(body.code).toBe('invalid_api_key')
    }
  })

  it('404 for an unknown model and an unknown /v1 URL', async () => {
    const error = await suite.client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.NotFoundError)
    const body = expectOpenAiError(bodyOf(error))
    expect(body).toMatchObject({ code: 'model_not_found', param: 'model' })
    expect(chatRequests(suite.llm)).toHaveLength(0)

    const unknown = await fetch(`${suite.serve.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}` },
      body: '{}',
    })
    expect(unknown.status).toBe(404)
    expectOpenAiError(await unknown.json())
  })

  it('400 for malformed JSON, client tools, stream_options without stream, and a last message that is not the user', async () => {
    const malformed = await fetch(`${suite.serve.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.token}`, 'content-type': 'application/json' },
      body: '{"model": "bureau-agent", "messages": [',
    })
    expect(malformed.status).toBe(400)
    expect(expectOpenAiError(await malformed.json()).code).toBe('invalid_json')

    const cases: Array<[Record<string, unknown>, string]> = [
      [
        {
          tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        },
        'tools',
      ],
      [{ stream: false, stream_options: { include_usage: true } }, 'stream_options'],
      [
        {
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'Hello' },
          ],
        },
        'messages',
      ],
    ]
    for (const [extra, param] of cases) {
      const error = await suite.client.chat.completions
        .create({
          model: 'bureau-agent',
          messages: [{ role: 'user', content: 'hi' }],
          ...extra,
        } as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OpenAI.BadRequestError)
      const body = expectOpenAiError(bodyOf(error))
      expect(body.param).toBe(param)
    }
    const toolsError = await suite.client.chat.completions
      .create({
        model: 'bureau-agent',
        messages: [{ role: 'user', content: 'hi' }],
        tools: [{ type: 'function', function: { name: 'x' } }],
      })
      .catch((e: unknown) => e)
    expect(toolsError).toBeInstanceOf(OpenAI.BadRequestError)
    expect((toolsError as Error).message).toMatch(/Client-defined tools are not supported/)
    expect(chatRequests(suite.llm)).toHaveLength(0)
  })
})

describe('cancellation', () => {
  it('a client that disconnects mid-stream cancels its agent run: the model request is aborted', async () => {
    suite.llm.push({ text: 'one two three four five six seven eight', stallAfterChunks: 2 })
    const controller = new AbortController()
    const stream = await suite.client.chat.completions.create(
      { model: 'bureau-agent', messages: [{ role: 'user', content: 'Talk slowly.' }], stream: true },
      { signal: controller.signal },
    )
    let received = ''
    const reading = (async () => {
      for await (const chunk of stream) {
        received += chunk.choices[0]?.delta.content ?? ''
        if (received.includes('two')) controller.abort()
      }
    })()
    await reading.catch(() => undefined)
    expect(received).toContain('two')
    expect(received).not.toContain('three')
    await suite.llm.waitUntil(
      () => suite.llm.requests.some((r) => r.endpoint === 'openai.chat' && r.aborted),
      {
        timeoutMs: 10_000,
      },
    )
    const request = suite.llm.requests.find((r) => r.endpoint === 'openai.chat')
    expect(request?.aborted).toBe(true)
    expect(request?.finished).toBe(false)
  })

  it('a non-stream client that gives up cancels its run too', async () => {
    suite.llm.push({ hang: true })
    const pending = await startAbortableChat(suite.client, suite.llm, 'Wait.')
    pending.controller.abort()
    expect(await pending.outcome).toBeInstanceOf(OpenAI.APIUserAbortError)
    await suite.llm.waitUntil(() => suite.llm.requests[0]?.aborted === true, { timeoutMs: 10_000 })
    expect(suite.llm.requests[0]?.aborted).toBe(true)
  })
})
