import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LlmSession, type ToolSpec } from '../../../src/main/llm'
import { parseJsonProtocolReply } from '../../../src/main/llm/toolProtocol/jsonProtocol'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { KINDS, scriptedClient } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const TOOLS: ToolSpec[] = [
  {
    name: 'files_list',
    description: 'Lists a folder.\nReturns: entries',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'agent path' },
        deep: { type: 'boolean', default: false },
      },
      required: ['path'],
    },
  },
]

const chatRequests = () => llm.requests.filter((r) => r.endpoint !== 'ollama.show')
const body = (index: number) => chatRequests()[index]?.body as Record<string, unknown>

describe.each(KINDS)('native tool calling over %s', (kind) => {
  it('sends the tools, returns the call, and sends the result back paired with the call', async () => {
    const session = new LlmSession({
      client: scriptedClient(llm, kind),
      system: 'You are Bureau.',
      tools: TOOLS,
      contextWindow: 32_000,
    })
    expect(session.toolProtocol).toBe('native')
    session.addUser('What is in /?')
    llm.push({ toolCalls: [{ id: 'call_x', name: 'files_list', arguments: { path: '/' } }] })
    const turn = await session.send()
    expect(turn.toolCalls).toHaveLength(1)
    expect(turn.toolCalls[0]?.name).toBe('files_list')
    expect(JSON.parse(turn.toolCalls[0]?.arguments ?? '')).toEqual({ path: '/' })
    expect(JSON.stringify(body(0).tools)).toContain('files_list')

    const id = turn.toolCalls[0]?.id ?? ''
    session.addToolResult(id, 'files_list', '["a.txt", "b.xlsx"]')
    llm.push({ text: 'Two files: a.txt and b.xlsx.' })
    const answer = await session.send()
    expect(answer.text).toBe('Two files: a.txt and b.xlsx.')
    const second = JSON.stringify(body(1).messages)
    expect(second).toContain('["a.txt", "b.xlsx"]'.replace(/"/g, '\\"'))
    if (kind === 'openai-compatible') expect(second).toContain('"tool_call_id":"call_x"')
    if (kind === 'anthropic') expect(second).toContain('"tool_use_id":"call_x"')
    if (kind === 'ollama') expect(second).toContain('"tool_name":"files_list"')
    expect(session.conversation.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ])
  })
})

describe.each(KINDS)('JSON protocol (supportsTools: false) over %s', (kind) => {
  it('asks for JSON, sends no native tools, parses the call (fenced, with prose) and done', async () => {
    const session = new LlmSession({
      client: scriptedClient(llm, kind, { supportsTools: false }),
      system: 'You are Bureau.',
      tools: TOOLS,
      contextWindow: 32_000,
    })
    expect(session.toolProtocol).toBe('json')
    session.addUser('List the root folder.')
    llm.push({ text: 'Sure!\n```json\n{"method": "files_list", "path": "/", deep: true,}\n```' })
    const first = await session.send()
    expect(first.toolCalls).toHaveLength(1)
    expect(first.toolCalls[0]?.name).toBe('files_list')
    expect(JSON.parse(first.toolCalls[0]?.arguments ?? '')).toEqual({ path: '/', deep: true })
    const sent = body(0)
    expect(sent.tools).toBeUndefined()
    const raw = chatRequests()[0]?.rawBody ?? ''
    expect(raw).toContain('\\"method\\": \\"<method name>\\"')
    expect(raw).toContain('files_list: Lists a folder.')
    if (kind === 'openai-compatible') expect(sent.response_format).toEqual({ type: 'json_object' })
    if (kind === 'ollama') expect(sent.format).toBe('json')
    if (kind === 'anthropic') expect(raw).toContain('Answer with one JSON object and nothing else.')

    session.addToolResult(first.toolCalls[0]?.id ?? '', 'files_list', '["a.txt"]')
    llm.push({ text: '{"method": "done", "message": "There is a.txt."}' })
    const done = await session.send()
    expect(done.toolCalls[0]).toMatchObject({ name: 'done' })
    expect(JSON.parse(done.toolCalls[0]?.arguments ?? '')).toEqual({ message: 'There is a.txt.' })
    const second = chatRequests()[1]?.rawBody ?? ''
    expect(second).toContain('Result of files_list:\\n[\\"a.txt\\"]')
    expect(second).not.toContain('tool_call_id')
  })

  it('an object without a method is reported as a protocol error to send back', async () => {
    const session = new LlmSession({
      client: scriptedClient(llm, kind, { supportsTools: false }),
      system: 's',
      tools: TOOLS,
      contextWindow: 32_000,
    })
    session.addUser('go')
    llm.push({ text: '{"path": "/"}' })
    const turn = await session.send()
    expect(turn.toolCalls).toEqual([])
    expect(turn.protocolError).toMatch(/no "method" field/)
  })
})

describe('parseJsonProtocolReply', () => {
  it.each([
    ['{"method": "files_list", "path": "/"}', 'files_list', { path: '/' }],
    ["{'method': 'files_list', 'path': '/'}", 'files_list', { path: '/' }],
    ['{"done": "All set."}', 'done', { message: 'All set.' }],
    [
      '{"done": true, "message": "ok", "attachments": ["/a.xlsx"]}',
      'done',
      { message: 'ok', attachments: ['/a.xlsx'] },
    ],
    ['{"name": "files_list", "arguments": {"path": "/"}}', 'files_list', { arguments: { path: '/' } }],
    ['I will call it: {"method": "cli", "command": "files list /"} now', 'cli', { command: 'files list /' }],
    ['{"method": "files_list", "path": "/x"', 'files_list', { path: '/x' }],
  ])('%s', (text, name, args) => {
    const reply = parseJsonProtocolReply(text, 'id1')
    expect(reply.kind).toBe('call')
    if (reply.kind !== 'call') return
    expect(reply.call.name).toBe(name)
    expect(JSON.parse(reply.call.arguments)).toEqual(args)
  })

  it('plain text without JSON is a text answer', () => {
    expect(parseJsonProtocolReply('Hello!', 'x')).toEqual({ kind: 'text', text: 'Hello!' })
  })
})
