import OpenAI, { toFile } from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseSseEvents, type ScriptedLlm, startScriptedLlm } from './scriptedLlm'

let llm: ScriptedLlm
let client: OpenAI

beforeAll(async () => {
  llm = await startScriptedLlm({
    models: ['gpt-scripted', { id: 'qwen3:8b', architecture: 'qwen3', contextLength: 40960 }],
  })
  client = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'sk-test', maxRetries: 0 })
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

interface ChunkDelta {
  role?: string
  content?: string | null
  tool_calls?: Array<{
    index: number
    id?: string
    type?: string
    function?: { name?: string; arguments?: string }
  }>
}
interface Chunk {
  object: string
  choices: Array<{ index: number; delta: ChunkDelta; finish_reason: string | null }>
  usage?: Record<string, unknown> | null
}

function post(path: string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${llm.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
    ...init,
  })
}

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: 'gpt-scripted',
  messages: [{ role: 'user', content: 'Hello there' }],
  ...extra,
})

/** Reads an OpenAI SSE stream with our own parser: the JSON chunks plus whether `[DONE]` came last. */
async function openaiStream(extra: Record<string, unknown> = {}) {
  const response = await post('/v1/chat/completions', chatBody({ stream: true, ...extra }))
  expect(response.headers.get('content-type')).toContain('text/event-stream')
  const events = parseSseEvents(await response.text())
  const done = events.at(-1)?.data === '[DONE]'
  const chunks = events
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as Chunk)
  return { chunks, done, events }
}

function joinContent(chunks: Chunk[]): string {
  return chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')
}

function joinToolCalls(chunks: Chunk[]) {
  const calls: Array<{ id: string; name: string; arguments: string }> = []
  for (const chunk of chunks) {
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
      if (delta.id !== undefined)
        calls[delta.index] = { id: delta.id, name: delta.function?.name ?? '', arguments: '' }
      const call = calls[delta.index]
      if (!call) throw new Error(`tool call delta for index ${delta.index} before its id`)
      call.arguments += delta.function?.arguments ?? ''
    }
  }
  return calls
}

describe('OpenAI chat completions, streamed (own SSE parser)', () => {
  it('streams a text turn word by word that reassembles exactly, role first, one finish_reason, then [DONE]', async () => {
    const text = 'The quarterly totals are  ready.\nSee sheet "Sales".'
    llm.push({ text })
    const { chunks, done } = await openaiStream()
    expect(done).toBe(true)
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true)
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant')
    expect(joinContent(chunks)).toBe(text)
    expect(chunks.filter((chunk) => chunk.choices[0]?.delta.content).length).toBeGreaterThan(5)
    const finishes = chunks
      .map((chunk) => chunk.choices[0]?.finish_reason)
      .filter((reason) => reason !== null)
    expect(finishes).toEqual(['stop'])
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true)
  })

  it('sends explicit chunks exactly as scripted', async () => {
    llm.push({ text: 'Bonjour Marie', chunks: ['Bon', 'jour M', 'arie'] })
    const { chunks } = await openaiStream()
    const contents = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter((content) => content)
    expect(contents).toEqual(['Bon', 'jour M', 'arie'])
  })

  it('with include_usage: every chunk has usage null, then one choices-less chunk carries usage', async () => {
    llm.push({ text: 'Two words', usage: { promptTokens: 120, completionTokens: 2, cachedTokens: 64 } })
    const { chunks, done } = await openaiStream({ stream_options: { include_usage: true } })
    expect(done).toBe(true)
    const last = chunks.at(-1)
    expect(last?.choices).toEqual([])
    expect(last?.usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 2,
      total_tokens: 122,
      prompt_tokens_details: { cached_tokens: 64 },
    })
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true)
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop')
  })

  it('streams tool calls as indexed deltas that reassemble into the exact arguments, broken ones included', async () => {
    const broken = '{"path": "/report.xlsx", "sheet": '
    llm.push({
      text: 'Let me check.',
      toolCalls: [
        { name: 'read_sheet', arguments: { path: '/Données/é😀.xlsx', cells: ['A1', 'B2'] } },
        { id: 'call_fixed', name: 'write_cell', arguments: broken },
      ],
    })
    const { chunks } = await openaiStream()
    expect(joinContent(chunks)).toBe('Let me check.')
    const calls = joinToolCalls(chunks)
    expect(calls).toEqual([
      {
        id: expect.stringMatching(/^call_scripted\d+_0$/),
        name: 'read_sheet',
        arguments: JSON.stringify({ path: '/Données/é😀.xlsx', cells: ['A1', 'B2'] }),
      },
      { id: 'call_fixed', name: 'write_cell', arguments: broken },
    ])
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
    expect(deltas.filter((delta) => delta.index === 0).length).toBeGreaterThan(2)
    expect(deltas.filter((delta) => delta.function?.name !== undefined).map((delta) => delta.index)).toEqual([
      0, 1,
    ])
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls'])
  })

  it('honours a finishReason override', async () => {
    llm.push({ text: 'Cut', finishReason: 'length' })
    const { chunks } = await openaiStream()
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['length'])
  })
})

describe('OpenAI chat completions with the official openai client', () => {
  it('answers non-stream with a chat.completion and default usage', async () => {
    llm.push({ text: 'Plain answer.' })
    const completion = await client.chat.completions.create({
      model: 'gpt-scripted',
      messages: [{ role: 'user', content: 'Hi' }],
    })
    expect(completion.object).toBe('chat.completion')
    expect(completion.model).toBe('gpt-scripted')
    expect(completion.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'Plain answer.' })
    expect(completion.choices[0]?.finish_reason).toBe('stop')
    expect(completion.usage?.completion_tokens).toBeGreaterThan(0)
    expect(completion.usage?.prompt_tokens_details).toBeUndefined()
  })

  it('joined stream text equals the non-stream text', async () => {
    const text = 'Same words either way, with punctuation: yes!'
    llm.push({ text }, { text })
    const whole = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
    })
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    })
    let joined = ''
    for await (const chunk of stream) joined += chunk.choices[0]?.delta.content ?? ''
    expect(joined).toBe(whole.choices[0]?.message.content)
    expect(joined).toBe(text)
  })

  it('streamed tool calls accumulate into the same arguments with the SDK helper', async () => {
    const args = { sheet: 'Sales', cell: 'B7', value: 42.5, note: 'multi\nline "quoted"' }
    llm.push({ toolCalls: [{ name: 'set_cell_value', arguments: args }], usage: { cachedTokens: 0 } })
    const runner = client.chat.completions.stream({
      model: 'gpt-scripted',
      messages: [{ role: 'user', content: 'write it' }],
      tools: [{ type: 'function', function: { name: 'set_cell_value', parameters: { type: 'object' } } }],
      stream_options: { include_usage: true },
    })
    const final = await runner.finalChatCompletion()
    const call = final.choices[0]?.message.tool_calls?.[0]
    expect(call?.type === 'function' && call.function.name).toBe('set_cell_value')
    expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual(args)
    expect(final.choices[0]?.finish_reason).toBe('tool_calls')
    expect(final.usage?.prompt_tokens_details?.cached_tokens).toBe(0)
    const recorded = llm.requests[0]?.body as { tools: unknown[] }
    expect(recorded.tools).toHaveLength(1)
  })

  it('reports DeepSeek-style cache hits when asked', async () => {
    llm.push({ text: 'ok', usage: { promptTokens: 100, cachedTokens: 80, style: 'deepseek' } })
    const response = await post('/v1/chat/completions', chatBody())
    const body = (await response.json()) as { usage: Record<string, unknown> }
    expect(body.usage).toMatchObject({
      prompt_cache_hit_tokens: 80,
      prompt_cache_miss_tokens: 20,
      prompt_tokens: 100,
    })
    expect(body.usage.prompt_tokens_details).toBeUndefined()
  })

  it('an in-band stream error reaches the SDK after the text already streamed', async () => {
    llm.push({ text: 'Partial answer then', streamError: { message: 'upstream overloaded' } })
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true })
    let joined = ''
    const consume = async () => {
      for await (const chunk of stream) joined += chunk.choices[0]?.delta.content ?? ''
    }
    await expect(consume()).rejects.toThrow(/upstream overloaded/)
    expect(joined).toBe('Partial answer then')
  })
})

describe('scripted errors', () => {
  it.each([
    [400, 'invalid_request_error', null, OpenAI.BadRequestError],
    [401, 'invalid_request_error', 'invalid_api_key', OpenAI.AuthenticationError],
    [404, 'invalid_request_error', 'model_not_found', OpenAI.NotFoundError],
    [429, 'requests', 'rate_limit_exceeded', OpenAI.RateLimitError],
    [500, 'server_error', null, OpenAI.InternalServerError],
    [503, 'server_error', null, OpenAI.InternalServerError],
  ])(
    'status %i has an OpenAI-shaped body and the matching SDK error',
    async (status, type, code, ErrorClass) => {
      llm.push({ error: { status } }, { error: { status, message: `custom ${status}` } })
      const response = await post('/v1/chat/completions', chatBody({ model: 'gpt-9' }))
      expect(response.status).toBe(status)
      const body = (await response.json()) as { error: Record<string, unknown> }
      expect(body.error).toMatchObject({ type, code, param: null })
      expect(body.error.message).toMatch(status === 404 ? /`gpt-9` does not exist/ : /\w/)
      const failing = client.chat.completions.create({ model: 'm', messages: [] })
      await expect(failing).rejects.toBeInstanceOf(ErrorClass)
      await expect(failing).rejects.toMatchObject({
        status,
        message: expect.stringContaining(`custom ${status}`),
      })
    },
  )

  it('429 carries Retry-After, extra headers, and the SDK retries after it', async () => {
    llm.push({
      error: { status: 429, retryAfterSeconds: 7, headers: { 'X-RateLimit-Remaining-Requests': '0' } },
    })
    const response = await post('/v1/chat/completions', chatBody())
    expect(response.headers.get('retry-after')).toBe('7')
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('0')

    llm.push({ error: { status: 429, retryAfterSeconds: 1 } }, { text: 'after the wait' })
    const retrying = new OpenAI({ baseURL: llm.baseUrl, apiKey: 'k', maxRetries: 1 })
    const completion = await retrying.chat.completions.create({ model: 'm', messages: [] })
    expect(completion.choices[0]?.message.content).toBe('after the wait')
    expect(llm.requests.map((request) => request.status)).toEqual([429, 429, 200])
    expect(llm.requests[2]?.headers['x-stainless-retry-count']).toBe('1')
  })

  it('a scripted raw body replaces the error body (e.g. a proxy HTML page)', async () => {
    llm.push({
      error: { status: 502, body: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } },
    })
    const response = await post('/v1/chat/completions', chatBody())
    expect(response.status).toBe(502)
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(await response.text()).toBe('<html>Bad gateway</html>')
  })

  it('an empty script fails loudly with a 500 that says the script ran out', async () => {
    const response = await post('/v1/chat/completions', chatBody())
    expect(response.status).toBe(500)
    const body = (await response.json()) as { error: { message: string; code: string } }
    expect(body.error.code).toBe('script_exhausted')
    expect(body.error.message).toMatch(/script ran out.*POST \/v1\/chat\/completions.*llm\.push/)
    expect(llm.requests[0]?.outOfScript).toBe(true)
  })

  it('rejects an invalid turn when it is pushed', () => {
    expect(() => llm.push({} as never)).toThrow(/needs text, toolCalls, error, malformed or hang/)
    expect(() => llm.push({ text: 'abc', chunks: ['ab'] })).toThrow(/chunks must join to text/)
    expect(() => llm.push({ text: 'x', chunkDelayMs: 5, tokensPerSecond: 30 })).toThrow(/not both/)
    expect(llm.pending).toBe(0)
  })

  it('answers a bad JSON request body with a 400', async () => {
    llm.push({ text: 'unused' })
    const response = await fetch(`${llm.baseUrl}/chat/completions`, { method: 'POST', body: '{"model":' })
    expect(response.status).toBe(400)
    expect(llm.pending).toBe(1)
  })
})

describe('malformed output', () => {
  it("'json' non-stream: the body is cut mid-JSON and the SDK rejects", async () => {
    llm.push({ malformed: 'json' }, { malformed: 'json' })
    const response = await post('/v1/chat/completions', chatBody())
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true)
    expect(() => JSON.parse(text)).toThrow()
    await expect(client.chat.completions.create({ model: 'm', messages: [] })).rejects.toThrow()
  })

  it("'json' stream: the first event's data is not JSON and no [DONE] follows", async () => {
    llm.push({ malformed: 'json' })
    const { events } = await rawEvents()
    expect(events).toHaveLength(1)
    expect(() => JSON.parse(events[0]?.data ?? '')).toThrow()
  })

  it("'sse': valid chunks first, then an event cut mid-JSON, no finish_reason, no [DONE]", async () => {
    llm.push({ malformed: 'sse', text: 'one two three four five six' })
    const { events } = await rawEvents()
    const parsed = events.map((event) => {
      try {
        return JSON.parse(event.data) as Chunk
      } catch {
        return 'broken'
      }
    })
    expect(parsed.at(-1)).toBe('broken')
    const good = parsed.slice(0, -1) as Chunk[]
    expect(good.length).toBeGreaterThan(1)
    expect(joinContent(good)).toBe('one two three')
    expect(good.every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true)
    expect(events.some((event) => event.data === '[DONE]')).toBe(false)

    llm.push({ malformed: 'sse' })
    const sdkLog = vi.spyOn(console, 'error').mockImplementation(() => {}) // the SDK logs the bad chunk
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true })
    await expect(
      (async () => {
        for await (const _ of stream) {
          // draining until the broken event throws
        }
      })(),
    ).rejects.toThrow()
    sdkLog.mockRestore()
  })

  async function rawEvents() {
    const response = await post('/v1/chat/completions', chatBody({ stream: true }))
    return { events: parseSseEvents(await response.text()) }
  }
})

describe('timing, hangs and client aborts', () => {
  it('hang never answers; the client abort is recorded', async () => {
    llm.push({ hang: true })
    const controller = new AbortController()
    const pending = post('/v1/chat/completions', chatBody(), { signal: controller.signal })
    const [request] = await llm.waitForRequests(1)
    expect(request?.status).toBeUndefined()
    controller.abort()
    await expect(pending).rejects.toThrow()
    await llm.waitUntil(() => request?.aborted === true)
    expect(request).toMatchObject({ aborted: true, finished: false })
  })

  it('stallAfterChunks streams some chunks, then holds until the client cancels mid-stream', async () => {
    llm.push({ text: 'alpha beta gamma delta', stallAfterChunks: 2 })
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true })
    const received: string[] = []
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content
      if (content) received.push(content)
      if (received.length === 2) break // breaking out aborts the HTTP request
    }
    expect(received).toEqual(['alpha', ' beta'])
    await llm.waitUntil(() => llm.requests[0]?.aborted === true)
    expect(llm.requests[0]?.status).toBe(200)
  })

  it('delayMs holds the headers back; paced streams (tokensPerSecond, chunkDelayMs) still reassemble', async () => {
    llm.push({ text: 'late', delayMs: 400 })
    const response = post('/v1/chat/completions', chatBody())
    const [request] = await llm.waitForRequests(1)
    expect(request?.status).toBeUndefined()
    expect(
      ((await (await response).json()) as { choices: Array<{ message: { content: string } }> }).choices[0]
        ?.message.content,
    ).toBe('late')

    llm.push(
      { text: 'paced at thirty tokens per second', tokensPerSecond: 200 },
      { text: 'a b c', chunkDelayMs: 5 },
    )
    expect(joinContent((await openaiStream()).chunks)).toBe('paced at thirty tokens per second')
    expect(joinContent((await openaiStream()).chunks)).toBe('a b c')
  })

  it('close() cuts connections that still hang', async () => {
    const local = await startScriptedLlm()
    local.push({ hang: true })
    const pending = fetch(`${local.baseUrl}/chat/completions`, { method: 'POST', body: '{}' })
    await local.waitForRequests(1)
    await local.close()
    await expect(pending).rejects.toThrow()
  })

  it('waitForRequests rejects with a summary when nothing arrives', async () => {
    await expect(llm.waitForRequests(1, { timeoutMs: 50 })).rejects.toThrow(
      /timed out .* 1 request\(s\)\. No request arrived/,
    )
  })
})

describe('recording, responder, models', () => {
  it('records method, path, query, headers, parsed body and time', async () => {
    llm.push({ text: 'ok' })
    const before = Date.now()
    await post('/v1/chat/completions?trace=1', chatBody())
    const [request] = llm.requests
    expect(request).toMatchObject({
      index: 0,
      method: 'POST',
      path: '/v1/chat/completions',
      query: { trace: '1' },
      endpoint: 'openai.chat',
      status: 200,
      finished: true,
      aborted: false,
      turn: { text: 'ok' },
    })
    expect(request?.headers.authorization).toBe('Bearer sk-test')
    expect(request?.body).toEqual(chatBody())
    expect(request?.rawBody).toBe(JSON.stringify(chatBody()))
    expect(request?.time).toBeGreaterThanOrEqual(before)
  })

  it('a responder answers from the request once the queue is empty, in every protocol', async () => {
    llm.push({ text: 'queued first' })
    llm.setResponder(({ protocol, lastUserText }) =>
      lastUserText === 'skip' ? undefined : { text: `${protocol} heard: ${lastUserText}` },
    )
    const first = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'a' }],
    })
    expect(first.choices[0]?.message.content).toBe('queued first')
    const second = await client.chat.completions.create({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'parts ' },
            { type: 'text', text: 'joined' },
          ],
        },
      ],
    })
    expect(second.choices[0]?.message.content).toBe('openai heard: parts joined')
    const anthropic = await post('/v1/messages', {
      model: 'c',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(((await anthropic.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe(
      'anthropic heard: hi',
    )
    const ollama = await post('/api/chat', {
      model: 'q',
      stream: false,
      messages: [{ role: 'user', content: 'yo' }],
    })
    expect(((await ollama.json()) as { message: { content: string } }).message.content).toBe(
      'ollama heard: yo',
    )
    const skipped = await post(
      '/v1/chat/completions',
      chatBody({ messages: [{ role: 'user', content: 'skip' }] }),
    )
    expect(skipped.status).toBe(500)
  })

  it('lists the configured models for OpenAI and, with anthropic-version, in Anthropic shape', async () => {
    const models = await client.models.list()
    expect(models.data.map((model) => model.id)).toEqual(['gpt-scripted', 'qwen3:8b'])
    expect(models.data[0]).toMatchObject({ object: 'model', owned_by: 'scripted' })
    const anthropic = await fetch(`${llm.baseUrl}/models`, { headers: { 'anthropic-version': '2023-06-01' } })
    expect(await anthropic.json()).toMatchObject({
      data: [{ type: 'model', id: 'gpt-scripted' }, { id: 'qwen3:8b' }],
      has_more: false,
    })
  })

  it('answers unknown routes with a 404 that names them', async () => {
    const response = await fetch(`${llm.baseUrl}/completions`, { method: 'POST', body: '{}' })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({
      error: { message: expect.stringContaining('POST /v1/completions') },
    })
    expect(llm.requests[0]?.endpoint).toBe('unknown')
  })

  it('reset() clears queue, responder and requests', async () => {
    llm.push({ text: 'x' })
    llm.setResponder(() => ({ text: 'y' }))
    await post('/v1/chat/completions', chatBody())
    llm.reset()
    expect(llm.pending).toBe(0)
    expect(llm.requests).toHaveLength(0)
    expect((await post('/v1/chat/completions', chatBody())).status).toBe(500)
  })
})

describe('Anthropic messages', () => {
  const messagesBody = (extra: Record<string, unknown> = {}) => ({
    model: 'claude-scripted',
    max_tokens: 100,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    ...extra,
  })

  it('streams message_start, text and tool_use blocks, message_delta and message_stop', async () => {
    const args = { path: '/a.docx', pages: [1, 2] }
    llm.push({
      text: 'Reading the file now.',
      toolCalls: [{ name: 'read_document', arguments: args }],
      usage: { promptTokens: 500, cachedTokens: 400, cacheCreationTokens: 50, completionTokens: 9 },
    })
    const response = await post('/v1/messages', messagesBody({ stream: true }))
    const events = parseSseEvents(await response.text())
    const names = [...new Set(events.map((event) => event.event))]
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    const data = events.map(
      (event): Record<string, unknown> => ({
        event: event.event,
        ...(JSON.parse(event.data) as Record<string, unknown>),
      }),
    )
    expect(data.every((item) => item.type === item.event)).toBe(true)
    const start = data[0] as unknown as { message: { usage: Record<string, number>; content: unknown[] } }
    expect(start.message.content).toEqual([])
    expect(start.message.usage).toMatchObject({
      input_tokens: 50,
      cache_read_input_tokens: 400,
      cache_creation_input_tokens: 50,
    })
    const deltas = data.filter((item) => item.type === 'content_block_delta') as unknown as Array<{
      index: number
      delta: { type: string; text?: string; partial_json?: string }
    }>
    expect(
      deltas
        .filter((d) => d.index === 0)
        .map((d) => d.delta.text)
        .join(''),
    ).toBe('Reading the file now.')
    const json = deltas
      .filter((d) => d.index === 1)
      .map((d) => d.delta.partial_json)
      .join('')
    expect(JSON.parse(json)).toEqual(args)
    const blockStarts = data.filter((item) => item.type === 'content_block_start') as unknown as Array<{
      content_block: Record<string, unknown>
    }>
    expect(blockStarts[1]?.content_block).toMatchObject({
      type: 'tool_use',
      name: 'read_document',
      input: {},
    })
    expect(data.find((item) => item.type === 'message_delta')).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 9 },
    })
  })

  it('answers non-stream with content blocks, stop_reason and cache usage', async () => {
    llm.push({ text: 'Done.', usage: { promptTokens: 30, cachedTokens: 20 } })
    const response = await post('/v1/messages', messagesBody())
    expect(await response.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, cache_read_input_tokens: 20 },
    })
  })

  it('shapes errors the Anthropic way', async () => {
    llm.push({ error: { status: 429, retryAfterSeconds: 3 } }, { error: { status: 529 } })
    const limited = await post('/v1/messages', messagesBody())
    expect(limited.headers.get('retry-after')).toBe('3')
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })
    const overloaded = await post('/v1/messages', messagesBody())
    expect(overloaded.status).toBe(529)
    expect(await overloaded.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
  })
})

describe('Ollama', () => {
  async function ndjson(body: Record<string, unknown>) {
    const response = await post('/api/chat', {
      model: 'qwen3:8b',
      messages: [{ role: 'user', content: 'Hi' }],
      ...body,
    })
    expect(response.headers.get('content-type')).toBe('application/x-ndjson')
    const text = await response.text()
    expect(text.endsWith('\n')).toBe(true)
    return text
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            message: { content: string; tool_calls?: unknown[] }
            done: boolean
          } & Record<string, unknown>,
      )
  }

  it('streams NDJSON by default: content lines, then one done line with counts', async () => {
    llm.push({ text: 'Hallo Welt, wie geht es?', usage: { promptTokens: 12, completionTokens: 6 } })
    const lines = await ndjson({})
    expect(lines.map((line) => line.message.content).join('')).toBe('Hallo Welt, wie geht es?')
    expect(lines.filter((line) => line.done)).toHaveLength(1)
    expect(lines.at(-1)).toMatchObject({
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 12,
      eval_count: 6,
      model: 'qwen3:8b',
    })
  })

  it("returns tool calls in Ollama's shape (object arguments) and non-stream when stream is false", async () => {
    llm.push({ toolCalls: [{ name: 'list_files', arguments: { folder: '/' } }] }, { text: 'whole' })
    const lines = await ndjson({})
    expect(lines.flatMap((line) => line.message.tool_calls ?? [])).toEqual([
      { function: { name: 'list_files', arguments: { folder: '/' } } },
    ])
    const response = await post('/api/chat', { model: 'qwen3:8b', stream: false, messages: [] })
    expect(await response.json()).toMatchObject({
      message: { role: 'assistant', content: 'whole' },
      done: true,
    })
  })

  it('lists tags and shows model_info with the configured context length', async () => {
    const tags = (await (await fetch(`${llm.url}/api/tags`)).json()) as { models: Array<{ name: string }> }
    expect(tags.models.map((model) => model.name)).toEqual(['gpt-scripted', 'qwen3:8b'])
    const show = await post('/api/show', { model: 'qwen3:8b' })
    expect(await show.json()).toMatchObject({
      model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 },
      capabilities: ['completion', 'tools'],
    })
    const untagged = await post('/api/show', { model: 'gpt-scripted:latest' })
    expect(
      ((await untagged.json()) as { model_info: Record<string, number> }).model_info['llama.context_length'],
    ).toBe(32768)
    const missing = await post('/api/show', { model: 'nope' })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: "model 'nope' not found" })
  })

  it('errors are {error} bodies, malformed streams end in a broken line', async () => {
    llm.push(
      { error: { status: 404, message: 'model "x" not found, try pulling it first' } },
      { malformed: 'sse', text: 'a b c d' },
    )
    const missing = await post('/api/chat', { model: 'x', messages: [] })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'model "x" not found, try pulling it first' })
    const broken = (await (await post('/api/chat', { model: 'x', messages: [] })).text()).trim().split('\n')
    expect(JSON.parse(broken[0] ?? '')).toMatchObject({ message: { content: 'a' } })
    expect(() => JSON.parse(broken.at(-1) ?? '')).toThrow()
  })
})

describe('audio', () => {
  function parseWav(bytes: Buffer) {
    return {
      riff: bytes.toString('ascii', 0, 4),
      riffSize: bytes.readUInt32LE(4),
      wave: bytes.toString('ascii', 8, 12),
      fmt: bytes.toString('ascii', 12, 16),
      audioFormat: bytes.readUInt16LE(20),
      channels: bytes.readUInt16LE(22),
      sampleRate: bytes.readUInt32LE(24),
      byteRate: bytes.readUInt32LE(28),
      bitsPerSample: bytes.readUInt16LE(34),
      data: bytes.toString('ascii', 36, 40),
      dataSize: bytes.readUInt32LE(40),
    }
  }

  it('speech returns a valid WAV of the scripted duration, and records the request', async () => {
    llm.speech.push({ durationMs: 500 })
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello.',
      response_format: 'wav',
    })
    expect(response.headers.get('content-type')).toBe('audio/wav')
    const bytes = Buffer.from(await response.arrayBuffer())
    const wav = parseWav(bytes)
    expect(wav).toEqual({
      riff: 'RIFF',
      riffSize: bytes.length - 8,
      wave: 'WAVE',
      fmt: 'fmt ',
      audioFormat: 1,
      channels: 1,
      sampleRate: 24000,
      byteRate: 48000,
      bitsPerSample: 16,
      data: 'data',
      dataSize: bytes.length - 44,
    })
    expect(wav.dataSize / wav.byteRate).toBeCloseTo(0.5, 3)
    expect(
      Math.max(...new Int16Array(bytes.buffer, bytes.byteOffset + 44, wav.dataSize / 2)),
    ).toBeGreaterThan(1000)
    expect(llm.requests[0]?.body).toMatchObject({ input: 'Hello.', voice: 'alloy' })
  })

  it('speech defaults without a script, and serves pcm and mp3 on request', async () => {
    const wav = await post('/v1/audio/speech', { model: 'tts-1', voice: 'nova', input: 'Ten chars!' })
    expect(parseWav(Buffer.from(await wav.arrayBuffer())).dataSize).toBe(24000 * 2 * 0.6)
    const pcm = await post('/v1/audio/speech', { input: 'abc', response_format: 'pcm' })
    expect((await pcm.arrayBuffer()).byteLength).toBe(24000 * 2 * 0.3)
    const mp3 = Buffer.from(
      await (await post('/v1/audio/speech', { input: 'abc', response_format: 'mp3' })).arrayBuffer(),
    )
    expect([...mp3.subarray(0, 2)]).toEqual([0xff, 0xfb])
    expect(mp3.length % 417).toBe(0)
    const opus = await post('/v1/audio/speech', { input: 'abc', response_format: 'opus' })
    expect(opus.status).toBe(400)
  })

  it('replies can come back out of order (an async responder holds the first one)', async () => {
    let releaseFirst = () => {}
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve
    })
    llm.speech.setResponder(async ({ input }) => {
      if (input === 'First sentence.') await firstHeld
      return { durationMs: 300 }
    })
    const order: string[] = []
    const speak = async (input: string) => {
      const response = await post('/v1/audio/speech', { input })
      await response.arrayBuffer()
      order.push(input)
      if (input === 'Second sentence.') releaseFirst()
    }
    await Promise.all([speak('First sentence.'), speak('Second sentence.')])
    expect(order).toEqual(['Second sentence.', 'First sentence.'])
  })

  it('transcriptions take a multipart upload, record its size and return the scripted transcript', async () => {
    llm.transcriptions.push({ text: 'What is in the sales sheet?' }, { text: 'plain', delayMs: 10 })
    const audio = Buffer.alloc(3210, 1)
    const result = await client.audio.transcriptions.create({
      file: await toFile(audio, 'question.wav', { type: 'audio/wav' }),
      model: 'whisper-1',
      language: 'en',
    })
    expect(result.text).toBe('What is in the sales sheet?')
    expect(llm.requests[0]?.upload).toEqual({
      field: 'file',
      fileName: 'question.wav',
      contentType: 'audio/wav',
      size: 3210,
    })
    expect(llm.requests[0]?.body).toMatchObject({ model: 'whisper-1', language: 'en' })

    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(10)]), 'a.webm')
    form.set('model', 'whisper-1')
    form.set('response_format', 'text')
    const text = await fetch(`${llm.baseUrl}/audio/transcriptions`, { method: 'POST', body: form })
    expect(await text.text()).toBe('plain')
  })

  it('transcriptions fail loudly when the script is empty, and 400 without a file', async () => {
    const form = new FormData()
    form.set('file', new Blob([new Uint8Array(4)]), 'a.wav')
    const empty = await fetch(`${llm.baseUrl}/audio/transcriptions`, { method: 'POST', body: form })
    expect(empty.status).toBe(500)
    expect(await empty.json()).toMatchObject({ error: { code: 'script_exhausted' } })
    const noFile = new FormData()
    noFile.set('model', 'whisper-1')
    const missing = await fetch(`${llm.baseUrl}/audio/transcriptions`, { method: 'POST', body: noFile })
    expect(missing.status).toBe(400)
  })
})
