import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import type { BrowserEnvironment } from '../../../src/main/browser'
import type { Logger } from '../../../src/main/platform'
import type { Toolset } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import type { RecordedRequest } from '../../support/scriptedLlm'
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

const suite = agentSuite('bureau-economy-')

/** The app's built-in toolsets, the web one included (its browser starts only when a page is opened). */
async function appToolsets(): Promise<Toolset[]> {
  const browser: BrowserEnvironment = {
    dataDir: await suite.dirs.make(),
    settings: () => ({ mode: 'bundled-chromium' }) as never,
  }
  return loadBuiltinToolsets({ browser })
}

/** Input tokens of a request as a provider counts them, roughly: message texts and calls, +4 each, plus the tools' JSON. */
function tokensOf(request: RecordedRequest | undefined): number {
  const body = request?.body as { tools?: unknown[] }
  const tools = body.tools && body.tools.length > 0 ? countTokens(JSON.stringify(body.tools)) : 0
  return sent(request).reduce(
    (total, m) =>
      total +
      4 +
      countTokens(m.content ?? '') +
      (m.tool_calls ?? []).reduce((n, c) => n + countTokens(c.function.name + c.function.arguments), 0),
    tools,
  )
}

describe('a plain question', () => {
  it.each(['api', 'cli'] as const)(
    '%s mode: the prompt lists toolsets one line each and costs under 1,500 tokens',
    async (mode) => {
      const toolsets = await appToolsets()
      suite.llm.push({ text: 'Hello! How can I help?' })
      const { result } = await run({
        prompt: 'hello',
        model: scriptedModel(suite.llm),
        toolsets,
        interactionMode: mode,
        workspace: workspaceAt(await suite.dirs.make()),
      })
      expect(result.status).toBe('answered')
      const request = suite.llm.requests[0]
      const system = systemPrompt(request)
      for (const toolset of toolsets) expect(system).toContain(`- ${toolset.name}: ${toolset.summary}`)
      expect(system).not.toContain('spreadsheet_set_range')
      expect({ system, tools: (request?.body as { tools?: unknown } | undefined)?.tools }).toMatchSnapshot()
      expect(tokensOf(request)).toBeLessThan(1500)
      // No toolset is open for "hello": the model sees the agent's tools only.
      expect(sentTools(request)).toEqual(mode === 'api' ? ['done', 'open_toolset'] : ['cli', 'done'])
    },
  )
})

describe('progressive disclosure (API mode)', () => {
  it('a method of an unopened toolset is refused with an error that opens it; the model calls again and recovers', async () => {
    const toolsets = await appToolsets()
    const root = await suite.dirs.make()
    const write = { name: 'files_write_text', arguments: { path: '/a.txt', content: 'hi' } }
    suite.llm.push(
      { toolCalls: [write] },
      { toolCalls: [write] },
      { toolCalls: [{ name: 'done', arguments: { message: 'Written.' } }] },
    )
    const { result } = await run({
      prompt: 'Write hi to /a.txt',
      model: scriptedModel(suite.llm),
      toolsets,
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect(result.status).toBe('done')
    // The refused call is not a step; the second one ran.
    expect(result.steps.map((s) => s.method)).toEqual(['files.write_text'])
    expect(sentTools(suite.llm.requests[0])).not.toContain('files_write_text')
    expect(toolMessages(suite.llm.requests[1]).at(-1)?.content).toMatch(
      /files_write_text was not run: the files toolset was not open\. It is open now/,
    )
    expect(sentTools(suite.llm.requests[1])).toContain('files_write_text')
  })

  it('each request extends the previous one, except at the one logged disclosure step', async () => {
    const toolsets = await appToolsets()
    const logged: Array<Record<string, unknown>> = []
    suite.llm.push(
      { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
      { toolCalls: [{ name: 'files_list', arguments: { path: '/' } }] },
      { toolCalls: [{ name: 'files_stat', arguments: { path: '/' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'Listed.' } }] },
    )
    await run({
      prompt: 'What is in my workspace?',
      model: scriptedModel(suite.llm),
      toolsets,
      interactionMode: 'api',
      workspace: workspaceAt(await suite.dirs.make()),
      logger: recordingLogger(logged),
    })
    const bodies = suite.llm.requests.map((r) => r.body as { messages: unknown[]; tools: unknown[] })
    expect(bodies).toHaveLength(4)
    const extendsPrevious = bodies.slice(1).map((body, i) => {
      const before = bodies[i] as { messages: unknown[]; tools: unknown[] }
      return (
        JSON.stringify(body.tools) === JSON.stringify(before.tools) &&
        before.messages.every((m, j) => JSON.stringify(m) === JSON.stringify(body.messages[j]))
      )
    })
    // Request 2 follows the opening: its tools changed. Requests 3 and 4 extend their predecessors.
    expect(extendsPrevious).toEqual([false, true, true])
    expect(logged).toEqual([
      expect.objectContaining({ message: 'toolset disclosed', toolset: 'files', reason: 'asked' }),
    ])
  })

  it('the same conversation state gives the same request bytes', async () => {
    const toolsets = await appToolsets()
    const bodies: string[] = []
    for (let i = 0; i < 2; i++) {
      suite.llm.reset()
      suite.llm.push({ text: 'It has one sheet.' })
      await run({
        prompt: 'How many sheets has it?',
        model: scriptedModel(suite.llm),
        toolsets,
        interactionMode: 'api',
        workspace: workspaceAt(await suite.dirs.make()),
        history: [
          { role: 'user', content: 'Open https://example.com and read it' },
          { role: 'assistant', content: 'It is an example page.', toolsets: ['web'] },
        ],
        attachments: [{ name: 'Budget.XLSX', bytes: new Uint8Array([1, 2, 3]) }],
        converter: {
          convert: async () => ({ markdown: 'Sheet1: 3 rows', format: 'xlsx', truncated: false }),
        },
      })
      bodies.push(JSON.stringify(suite.llm.requests[0]?.body))
    }
    expect(bodies[1]).toBe(bodies[0])
    // A toolset used earlier stays open; an attached workbook opens the spreadsheet toolset.
    const tools = sentTools(suite.llm.requests[0])
    expect(tools.findIndex((t) => t.startsWith('web_'))).toBeLessThan(
      tools.findIndex((t) => t.startsWith('spreadsheet_')),
    )
    expect(tools.some((t) => t.startsWith('files_'))).toBe(false)
  })

  it('open_toolset with an unknown name says which toolsets exist', async () => {
    const toolsets = await appToolsets()
    suite.llm.push(
      { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'spreadshet' } }] },
      { toolCalls: [{ name: 'done', arguments: { message: 'ok' } }] },
    )
    await run({ prompt: 'x', model: scriptedModel(suite.llm), toolsets, interactionMode: 'api' })
    const reply = toolMessages(suite.llm.requests[1]).at(-1)?.content ?? ''
    expect(reply).toContain('There is no toolset "spreadshet". Did you mean `spreadsheet`?')
    expect(reply).toContain('Toolsets: files, history, convert, spreadsheet, documents, web.')
  })
})

function recordingLogger(into: Array<Record<string, unknown>>): Logger {
  const logger: Logger = {
    info: (message, fields) => {
      into.push({ message, ...fields })
    },
    warn: () => {},
    error: () => {},
    debug: () => {},
    child: () => logger,
  }
  return logger
}
