import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  agentSuite,
  run,
  scriptedModel,
  sent,
  sentTools,
  systemPrompt,
  toolMessages,
  workspaceAt,
} from './support'

const suite = agentSuite('bureau-agent-')

describe('runAgent: a multi-step task with the files toolset', () => {
  it('API mode: native calls per method, results fed back, done with attachments; files really written', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      {
        text: 'I will write the note.',
        toolCalls: [
          { name: 'files_write_text', arguments: { path: '/notes/a.txt', content: 'hello agent' } },
        ],
      },
      { toolCalls: [{ name: 'files_read', arguments: { path: '/notes/a.txt' } }] },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'The note is written.', attachments: ['/notes/a.txt'] } },
        ],
      },
    )
    const { result, events, text } = await run({
      prompt: 'Write hello agent into /notes/a.txt',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })

    expect(await readFile(join(root, 'notes/a.txt'), 'utf8')).toBe('hello agent')
    expect(result.status).toBe('done')
    expect(result.message).toBe('The note is written.')
    expect(result.attachments).toEqual(['/notes/a.txt'])
    expect(result.steps.map((s) => [s.method, s.status])).toEqual([
      ['files.write_text', 'ok'],
      ['files.read', 'ok'],
    ])
    expect(result.usage.inputTokens).toBeGreaterThan(0)
    // Streamed text joins to the transcript: narration, then the done message.
    expect(text).toBe('I will write the note.\n\nThe note is written.')
    expect(result.text).toBe(text)
    expect(events.filter((e) => e.type === 'step').map((e) => e.type === 'step' && e.phase)).toEqual([
      'started',
      'finished',
      'started',
      'finished',
    ])

    expect(suite.llm.requests).toHaveLength(3)
    expect(sentTools(suite.llm.requests[0])).toEqual(
      expect.arrayContaining(['files_write_text', 'files_read', 'done']),
    )
    expect(sentTools(suite.llm.requests[0])).not.toContain('cli')
    const system = systemPrompt(suite.llm.requests[0])
    expect(system).toContain('## Steps')
    expect(system).toContain('answer it directly in plain text')
    // The toolsets are listed one line each; their methods travel as tools, never as a manual.
    expect(system).toContain(`- files: ${suite.files.summary}`)
    expect(system).not.toContain('files_write_text')
    // The result of the read reached the model as a tool message.
    const results = toolMessages(suite.llm.requests[2])
    expect(results.map((m) => m.content).join('\n')).toContain('hello agent')
    // The system prompt stays byte-identical across the calls of a run (prefix caching).
    expect(systemPrompt(suite.llm.requests[2])).toBe(system)
  })

  it('CLI mode: one cli tool plus a separate done tool; the terminal command writes the file', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'cli', arguments: { command: 'files write_text /b.txt "hi there"' } }] },
      { toolCalls: [{ name: 'cli', arguments: { command: 'files read /b.txt' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'Done.', attachments: ['/b.txt'] } }] },
    )
    const { result } = await run({
      prompt: 'Write hi there to /b.txt',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'cli',
      workspace: workspaceAt(root),
    })
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('hi there')
    expect(result.status).toBe('done')
    expect(result.attachments).toEqual(['/b.txt'])
    expect(result.steps.map((s) => s.method)).toEqual(['files.write_text', 'files.read'])
    expect(result.steps[0]?.args).toMatchObject({ path: '/b.txt', content: 'hi there' })
    expect(sentTools(suite.llm.requests[0])).toEqual(['cli', 'done'])
    expect(systemPrompt(suite.llm.requests[0])).toContain(`- files: ${suite.files.summary}`)
    expect(systemPrompt(suite.llm.requests[0])).toContain('`<toolset> --help`')
    expect(systemPrompt(suite.llm.requests[0])).not.toContain('write_text')
    expect(toolMessages(suite.llm.requests[2]).at(-1)?.content).toContain('hi there')
  })

  it('JSON protocol (no native tools): one JSON object per reply, results come back as user messages', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { text: '{"method": "files_write_text", "path": "/c.txt", "content": "from json"}' },
      { text: '```json\n{"method": "done", "message": "Saved /c.txt."}\n```' },
    )
    const { result, text } = await run({
      prompt: 'Save from json into /c.txt',
      model: scriptedModel(suite.llm, { supportsTools: false }),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect(await readFile(join(root, 'c.txt'), 'utf8')).toBe('from json')
    expect(result.status).toBe('done')
    expect(text).toBe('Saved /c.txt.')
    expect(sentTools(suite.llm.requests[0])).toEqual([])
    expect(systemPrompt(suite.llm.requests[0])).toContain('"method"')
    const last = sent(suite.llm.requests[1]).at(-1)
    expect(last?.role).toBe('user')
    expect(last?.content).toContain('Result of files_write_text')
  })

  it('JSON protocol: prose before the call is streamed, the JSON call itself never is', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { text: 'Let me save that.\n{"method": "files_write_text", "path": "/p.txt", "content": "x"}' },
      { text: 'A plain answer after all.' },
    )
    const { result, text } = await run({
      prompt: 'save',
      model: scriptedModel(suite.llm, { supportsTools: false }),
      toolsets: [suite.files],
      interactionMode: 'cli',
      workspace: workspaceAt(root),
    })
    expect(await readFile(join(root, 'p.txt'), 'utf8')).toBe('x')
    expect(text).toBe('Let me save that.\n\nA plain answer after all.')
    expect(text).not.toContain('{')
    expect(result.status).toBe('answered')
  })

  it('answers a trivial question directly without tools (the fast path)', async () => {
    suite.llm.push({ text: 'Paris is the capital of France.' })
    const { result, text } = await run({
      prompt: 'What is the capital of France?',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
    })
    expect(result.status).toBe('answered')
    expect(result.message).toBe('Paris is the capital of France.')
    expect(text).toBe('Paris is the capital of France.')
    expect(result.steps).toEqual([])
    expect(suite.llm.requests).toHaveLength(1)
  })
})

describe('runAgent: corrections the next turn uses', () => {
  it('an unknown method is answered with the closest names, and the next turn uses the right one', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'files_writ_text', arguments: { path: '/d.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/d.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'ok' } }] },
    )
    const { result } = await run({
      prompt: 'write',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    const correction = toolMessages(suite.llm.requests[1]).at(-1)?.content ?? ''
    expect(correction).toMatch(/Unknown method/)
    expect(correction).toContain('write_text')
    expect(result.steps.map((s) => s.status)).toEqual(['error', 'ok'])
    expect(await readFile(join(root, 'd.txt'), 'utf8')).toBe('x')
    expect(result.status).toBe('done')
  })

  it('bad arguments are answered with the field and what was expected', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/e.txt' } }] },
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/e.txt', content: 'fixed' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'ok' } }] },
    )
    const { result } = await run({
      prompt: 'write',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    const correction = toolMessages(suite.llm.requests[1]).at(-1)?.content ?? ''
    expect(correction).toMatch(/^Error: /)
    expect(correction).toContain('content')
    expect(await readFile(join(root, 'e.txt'), 'utf8')).toBe('fixed')
    expect(result.status).toBe('done')
  })

  it('done with a file that does not exist is refused with a correction', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'done', arguments: { message: 'here', attachments: ['/missing.xlsx'] } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'here, no file' } }] },
    )
    const { result } = await run({
      prompt: 'x',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect(toolMessages(suite.llm.requests[1]).at(-1)?.content).toContain('/missing.xlsx does not exist')
    expect(result.message).toBe('here, no file')
    expect(result.attachments).toEqual([])
  })
})

describe('runAgent: done without a message', () => {
  it('is corrected when nothing was said, and uses the narration when there was some', async () => {
    suite.llm.push(
      { toolCalls: [{ name: 'done', arguments: {} }] },
      { text: 'The answer is 42.', toolCalls: [{ name: 'done', arguments: { message: '' } }] },
    )
    const { result, text } = await run({
      prompt: 'x',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
    })
    expect(toolMessages(suite.llm.requests[1]).at(-1)?.content).toMatch(/^Error: done: "message"/)
    expect(result.status).toBe('done')
    expect(result.message).toBe('The answer is 42.')
    expect(text).toBe('The answer is 42.')
  })
})

describe('runAgent: stopping', () => {
  it('stops when one method fails the same way three times in a row', async () => {
    const root = await suite.dirs.make()
    const bad = { toolCalls: [{ name: 'files_read', arguments: { path: '/nope.txt' } }] }
    suite.llm.push(bad, bad, bad, { toolCalls: [{ name: 'done', arguments: { message: 'never reached' } }] })
    const { result, text } = await run({
      prompt: 'read /nope.txt',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect(result.status).toBe('repeated_failure')
    expect(suite.llm.requests).toHaveLength(3)
    expect(result.steps).toHaveLength(3)
    expect(result.message).toMatch(/files\.read failed 3 times in a row/)
    expect(result.error).toBeTruthy()
    expect(text).toContain('I stopped')
  })

  it('ends at maxIterations, says so and returns what it has', async () => {
    const root = await suite.dirs.make()
    const list = { toolCalls: [{ name: 'files_list', arguments: { path: '/' } }] }
    suite.llm.push(list, list, list)
    const { result, text } = await run({
      prompt: 'list forever',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
      maxIterations: 2,
    })
    expect(result.status).toBe('budget')
    expect(suite.llm.requests).toHaveLength(2)
    expect(result.steps.map((s) => s.method)).toEqual(['files.list', 'files.list'])
    expect(result.message).toMatch(/after 2 model calls/)
    expect(result.message).toContain('files.list')
    expect(text).toBe(result.message)
  })

  it('reports a model that cannot be reached as failed', async () => {
    suite.llm.push({ error: { status: 401 } })
    const { result } = await run({
      prompt: 'hi',
      model: scriptedModel(suite.llm),
      toolsets: [suite.files],
      interactionMode: 'api',
    })
    expect(result.status).toBe('failed')
    expect(result.error).toBeTruthy()
    expect(result.error).not.toContain('sk-scripted')
  })
})

describe.each(['anthropic', 'ollama'] as const)('runAgent over the %s protocol', (kind) => {
  it('runs a tool call and done, with results matched to their calls', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/k.txt', content: kind } }] },
      { toolCalls: [{ name: 'done', arguments: { message: `done over ${kind}` } }] },
    )
    const { result } = await run({
      prompt: 'write',
      model: scriptedModel(suite.llm, {
        kind,
        baseUrl: kind === 'ollama' ? suite.llm.url : suite.llm.baseUrl,
      }),
      toolsets: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect(result.status).toBe('done')
    expect(result.message).toBe(`done over ${kind}`)
    expect(await readFile(join(root, 'k.txt'), 'utf8')).toBe(kind)
    expect(suite.llm.requests.map((r) => r.endpoint)).toHaveLength(2)
    // The tool result went back in the protocol's own shape, tied to the call.
    expect(JSON.stringify(suite.llm.requests[1]?.body)).toContain('\\"created\\":true')
  })
})
