import { existsSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI, { toFile } from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHAT_SYSTEM_PROMPT } from '../../../src/main/agent/chatStream'
import { type BureauApp, createApp } from '../../../src/main/app'
import { createBridge, createBridgeToken, revokeBridgeToken } from '../../../src/main/bridge'
import { silentLogger } from '../../../src/main/platform'
import { startHttpHost } from '../../../src/main/server'
import type { HttpHost } from '../../../src/main/server/createHttpHost'
import { rawChunkedPost, rawHttp } from '../../support/rawHttp'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { stubEnv } from '../../support/stubEnv'
import { tempDirs } from '../../support/tempDir'
import {
  bodyOf,
  chatRequests,
  expectOpenAiError,
  llmEnv,
  messageText,
  openAiClient,
  startAbortableChat,
  statusOf,
} from './support'

// Finer cases in one process: the bridge mounted on startHttpHost, the app's settings at hand.

const dirs = tempDirs('bureau-bridge-inproc-')
let llm: ScriptedLlm
let app: BureauApp
let host: HttpHost
let alice: OpenAI
let aliceToken: string
let bob: OpenAI

beforeAll(async () => {
  llm = await startScriptedLlm()
  stubEnv(llmEnv(llm))
  const dataDir = await dirs.make()
  app = await createApp({ host: 'web', dataDir, workspaceDir: await dirs.make(), logger: silentLogger })
  const bridge = createBridge({ app, dataDir })
  host = await startHttpHost({ app, port: 0, mounts: [bridge.mount] })
  aliceToken = (await createBridgeToken(app.settings, 'alice')).token
  alice = openAiClient(host.url, aliceToken)
  bob = openAiClient(host.url, (await createBridgeToken(app.settings, 'bob')).token)
})

afterAll(async () => {
  await host?.close()
  await app?.dispose()
  await llm?.close()
  vi.unstubAllEnvs()
  await dirs.cleanup()
})

beforeEach(async () => {
  llm.reset()
  await app.settings.update({ bridge: null })
})

describe('tokens', () => {
  it('a token created while the host runs works at once; a revoked one gets 401 at once', async () => {
    const { token } = await createBridgeToken(app.settings, 'late')
    const late = openAiClient(host.url, token)
    expect((await late.models.list()).data.length).toBeGreaterThan(2)
    expect(await revokeBridgeToken(app.settings, 'late')).toBe(true)
    const error = await late.models.list().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
    expect(expectOpenAiError(bodyOf(error)).code).toBe('invalid_api_key')
  })

  it('each token sees only its own files', async () => {
    const file = await alice.files.create({
      file: await toFile(Buffer.from('private'), 'a.txt'),
      purpose: 'assistants',
    })
    expect((await alice.files.list()).data.map((f) => f.id)).toContain(file.id)
    expect((await bob.files.list()).data.map((f) => f.id)).not.toContain(file.id)
    for (const attempt of [
      () => bob.files.retrieve(file.id),
      () => bob.files.content(file.id),
      () => bob.files.delete(file.id),
    ]) {
      const error = await attempt().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(OpenAI.NotFoundError)
      expect(expectOpenAiError(bodyOf(error)).code).toBe('file_not_found')
    }
    // Nor can it attach it to a chat.
    const chat = await bob.chat.completions
      .create({
        model: 'bureau-agent',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'read' },
              { type: 'file', file: { file_id: file.id } },
            ],
          },
        ],
      })
      .catch((e: unknown) => e)
    expect(statusOf(chat)).toBe(400)
    expect(expectOpenAiError(bodyOf(chat))).toMatchObject({
      code: 'file_not_found',
      param: 'messages.[0].content.[1].file.file_id',
    })
    expect(chatRequests(llm)).toHaveLength(0)
  })

  it('the Host guard of the headless host covers /v1 too, answering in OpenAI error shape', async () => {
    const res = await rawHttp({
      port: host.port,
      path: '/v1/models',
      headers: { host: 'evil.example:80', authorization: `Bearer ${aliceToken}` },
    })
    expect(res.status).toBe(403)
    expect(JSON.parse(res.body)).toEqual({
      error: {
        message: expect.stringContaining('Host not allowed'),
        type: 'invalid_request_error',
        param: null,
        code: 'forbidden',
      },
    })
  })
})

describe('files', () => {
  it('lists newest first by default, with order, limit, after and purpose', async () => {
    const made = []
    for (const [name, purpose] of [
      ['one.txt', 'user_data'],
      ['two.txt', 'assistants'],
      ['three.txt', 'user_data'],
    ] as const)
      made.push(await bob.files.create({ file: await toFile(Buffer.from(name), name), purpose }))
    const all = (await bob.files.list()).data.map((f) => f.filename)
    expect(all.slice(0, 3)).toEqual(['three.txt', 'two.txt', 'one.txt'])
    const userData = (await bob.files.list({ purpose: 'user_data' })).data.map((f) => f.filename)
    expect(userData).toEqual(expect.arrayContaining(['one.txt', 'three.txt']))
    expect(userData).not.toContain('two.txt')
    const page = await bob.files.list({ order: 'asc', limit: 1 })
    expect(page.data).toHaveLength(1)
    expect(page.has_more).toBe(true)
    for (const file of made) await bob.files.delete(file.id)
  })

  it('refuses uploads without a known purpose, without a file, or not multipart (400)', async () => {
    const noPurpose = await bob.files
      .create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'nonsense' as 'assistants' })
      .catch((e: unknown) => e)
    expect(statusOf(noPurpose)).toBe(400)
    expect(expectOpenAiError(bodyOf(noPurpose)).param).toBe('purpose')

    const form = new FormData()
    form.set('purpose', 'user_data')
    const noFile = await fetch(`${host.url}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceToken}` },
      body: form,
    })
    expect(noFile.status).toBe(400)
    expect(expectOpenAiError(await noFile.json()).param).toBe('file')

    const json = await fetch(`${host.url}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceToken}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(400)
    expectOpenAiError(await json.json())
  })

  it('an upload far over the limit is refused from its Content-Length with 413 (bridge.maxFileBytes setting)', async () => {
    await app.settings.update({ bridge: { maxFileBytes: 1024 } })
    const error = await alice.files
      .create({ file: await toFile(Buffer.alloc(200_000, 65), 'huge.txt'), purpose: 'user_data' })
      .catch((e: unknown) => e)
    expect(statusOf(error)).toBe(413)
    expect(expectOpenAiError(bodyOf(error)).code).toBe('file_too_large')
  })

  it('a chunked chat body over bridge.maxRequestBytes gets 413 while it arrives', async () => {
    await app.settings.update({ bridge: { maxRequestBytes: 1024 * 1024 } })
    const res = await rawChunkedPost({
      port: host.port,
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${aliceToken}`, 'content-type': 'application/json' },
      totalBytes: 64 * 1024 * 1024,
    })
    expect(res.status).toBe(413)
    expect(expectOpenAiError(JSON.parse(res.body)).code).toBe('request_too_large')
    expect(res.bytesSent).toBeLessThan(32 * 1024 * 1024)
    expect(chatRequests(llm)).toHaveLength(0)
  })

  it('serves content with its type, as an attachment, never renderable on the UI origin', async () => {
    const file = await alice.files.create({
      file: await toFile(Buffer.from('<script>alert(1)</script>'), 'page.html'),
      purpose: 'user_data',
    })
    const res = await fetch(`${host.url}/v1/files/${file.id}/content`, {
      headers: { authorization: `Bearer ${aliceToken}` },
    })
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"/)
    expect(res.headers.get('content-security-policy')).toContain('sandbox')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await res.text()).toBe('<script>alert(1)</script>')
  })
})

describe('chat completions', () => {
  it('bureau-chat: plain chat without tools, with the conversation, and usage from the provider', async () => {
    llm.push({ text: 'Blue, still.', usage: { promptTokens: 40, completionTokens: 3 } })
    const answer = await alice.chat.completions.create({
      model: 'bureau-chat',
      messages: [
        { role: 'user', content: 'Favourite colour?' },
        { role: 'assistant', content: 'Blue.' },
        { role: 'user', content: 'Still?' },
      ],
    })
    expect(answer.choices[0]?.message.content).toBe('Blue, still.')
    expect(answer.usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 })
    const sent = chatRequests(llm)[0]
    expect(sent?.tools ?? []).toEqual([])
    expect(sent?.messages.map((m) => [m.role, messageText(m)])).toEqual([
      ['system', CHAT_SYSTEM_PROMPT],
      ['user', 'Favourite colour?'],
      ['assistant', 'Blue.'],
      ['user', 'Still?'],
    ])
  })

  it('an inline file_data part becomes an attachment', async () => {
    llm.setResponder((info) => ({
      text: JSON.stringify(info.messages).includes('Inline secret 7781') ? 'Got 7781.' : 'Nothing.',
    }))
    const answer = await alice.chat.completions.create({
      model: 'bureau-chat',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What number?' },
            {
              type: 'file',
              file: {
                filename: 'note.txt',
                file_data: `data:text/plain;base64,${Buffer.from('Inline secret 7781').toString('base64')}`,
              },
            },
          ],
        },
      ],
    })
    expect(answer.choices[0]?.message.content).toBe('Got 7781.')
  })

  it('refuses what it cannot honour with 400 and the offending param', async () => {
    const cases: Array<[Record<string, unknown>, string, string | null]> = [
      [{ n: 2 }, 'n', null],
      [
        {
          messages: [
            { role: 'user', content: 'a' },
            { role: 'tool', content: 'r', tool_call_id: 'c1' },
            { role: 'user', content: 'b' },
          ],
        },
        'messages.[1]',
        'tools_not_supported',
      ],
      [
        {
          messages: [
            {
              role: 'user',
              content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }],
            },
          ],
        },
        'messages.[0].content.[0].image_url.url',
        null,
      ],
      [
        {
          messages: [
            { role: 'user', content: [{ type: 'input_audio', input_audio: { data: '', format: 'wav' } }] },
          ],
        },
        'messages.[0].content.[0]',
        null,
      ],
      [{ messages: [{ role: 'user', content: '   ' }] }, 'messages.[0].content', null],
      [{ messages: [] }, 'messages', null],
      [{ response_format: { type: 'json_object' } }, 'response_format', null],
      [{ model: 42 }, 'model', null],
    ]
    for (const [extra, param, code] of cases) {
      const error = await alice.chat.completions
        .create({
          model: 'bureau-agent',
          messages: [{ role: 'user', content: 'hi' }],
          ...extra,
        } as OpenAI.ChatCompletionCreateParamsNonStreaming)
        .catch((e: unknown) => e)
      expect(statusOf(error), JSON.stringify(extra)).toBe(400)
      const body = expectOpenAiError(bodyOf(error))
      expect(body.param, JSON.stringify(extra)).toBe(param)
      if (code) expect(body.code).toBe(code)
    }
    expect(chatRequests(llm)).toHaveLength(0)
  })

  it('a model failure is a 502 that OpenAI clients must not retry; in a stream it is an in-band error', async () => {
    llm.push({ error: { status: 401 } }, { error: { status: 401 } })
    const res = await fetch(`${host.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${aliceToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bureau-agent', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(res.status).toBe(502)
    expect(res.headers.get('x-should-retry')).toBe('false')
    expect(expectOpenAiError(await res.json())).toMatchObject({ type: 'server_error', code: 'model_error' })

    const stream = await alice.chat.completions.create({
      model: 'bureau-agent',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    const chunks: ChatCompletionChunk[] = []
    const error = await (async () => {
      for await (const chunk of stream) chunks.push(chunk)
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect((error as Error).message).toMatch(/The model could not answer/)
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant')
    expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(false)
  })

  it('the bridge.* settings apply live: maxConcurrent 1 and maxQueued 0 refuse a second run at once', async () => {
    await app.settings.update({ bridge: { maxConcurrent: 1, maxQueued: 0 } })
    llm.push({ hang: true })
    const first = await startAbortableChat(alice, llm, 'first')
    const second = await alice.chat.completions
      .create({ model: 'bureau-chat', messages: [{ role: 'user', content: 'second' }] })
      .catch((e: unknown) => e)
    expect(second).toBeInstanceOf(OpenAI.RateLimitError)
    first.controller.abort()
    await first.outcome
    await llm.waitUntil(() => llm.requests[0]?.aborted === true, { timeoutMs: 10_000 })
  })
})

describe('approvals (the bridge cannot ask anyone)', () => {
  type Steps = { bureau_steps: Array<{ method: string; status: string; error?: string; approval?: unknown }> }
  const writeNotes = async (path: string) => {
    llm.push(
      { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
      { toolCalls: [{ name: 'files_write_text', arguments: { path, content: 'minutes' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'Finished.' } }] },
    )
    const answer = await alice.chat.completions.create({
      model: 'bureau-agent',
      messages: [{ role: 'user', content: 'Save the minutes' }],
    })
    const steps = (answer as unknown as Steps).bureau_steps
    return { answer, step: steps.find((s) => s.method === 'files.write_text') }
  }
  const exists = (path: string) => existsSync(join(app.workspaceDir, ...path.split('/')))

  it('the approvals.nonInteractive setting decides what an `ask` becomes; denials are in the result', async () => {
    try {
      // `files: ask` makes the workspace's writes ask; the bridge answers with its level instead.
      await app.settings.update({ approvals: { rules: { files: 'ask' }, nonInteractive: 'read' } })
      const denied = await writeNotes('/bridge/denied.txt')
      expect(denied.step).toMatchObject({
        status: 'error',
        error: expect.stringMatching(/approval level \(read\) does not cover this call/),
        approval: { outcome: 'denied', by: 'non-interactive' },
      })
      expect(exists('/bridge/denied.txt')).toBe(false)
      // The model was told, and went on to answer.
      expect(JSON.stringify(chatRequests(llm).at(-1))).toContain('approval level (read)')
      expect(messageText(denied.answer.choices[0]?.message)).toBe('Finished.')

      await app.settings.update({ approvals: { nonInteractive: 'write' } })
      const allowed = await writeNotes('/bridge/allowed.txt')
      expect(allowed.step).toMatchObject({
        status: 'ok',
        approval: { outcome: 'allowed', by: 'non-interactive' },
      })
      expect(exists('/bridge/allowed.txt')).toBe(true)

      // A deny rule denies even at the level `all`.
      await app.settings.update({ approvals: { rules: { files: 'deny' }, nonInteractive: 'all' } })
      const ruled = await writeNotes('/bridge/ruled.txt')
      expect(ruled.step).toMatchObject({
        status: 'error',
        error: expect.stringMatching(/approval settings/),
        approval: { outcome: 'denied', by: 'policy' },
      })
      expect(exists('/bridge/ruled.txt')).toBe(false)
    } finally {
      await app.settings.update({ approvals: { rules: { files: 'allow' }, nonInteractive: 'write' } })
    }
  })
})
