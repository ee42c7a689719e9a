import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { type AgentAttachment, runAgent } from '../src/main/agent'
import type { BrowserEnvironment } from '../src/main/browser'
import { createConverter } from '../src/main/convert'
import { createLlmClient } from '../src/main/llm'
import { createToolSession, invoke, type Toolset } from '../src/main/tools'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { createWorkspace } from '../src/main/workspace'
import { fixturePath } from '../test/support/fixtures'
import type { RecordedRequest, ScriptedLlm, Turn } from '../test/support/scriptedLlm'
import { scriptedProvider } from '../test/support/scriptedProvider'

// The token-economy scenarios of `prompt.bench.ts`: the real agent (`runAgent`) against the scripted
// server, every request captured and counted with o200k_base.

export type Mode = 'api' | 'cli'

interface SentMessage {
  role: string
  content?: string | null
  tool_calls?: Array<{ function: { name: string; arguments: string } }>
}

/** Tokens of one chat request: message texts and tool calls (+4 per message), plus the tools' JSON. */
export function requestTokens(body: unknown): number {
  const { messages = [], tools = [] } = body as { messages?: SentMessage[]; tools?: unknown[] }
  let total = tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0
  for (const message of messages) {
    total += 4 + countTokens(message.content ?? '')
    for (const call of message.tool_calls ?? [])
      total += countTokens(call.function.name) + countTokens(call.function.arguments)
  }
  return total
}

/** A request that does not start with the previous one's messages and tools breaks the prompt cache. */
export function prefixBreaks(bodies: readonly unknown[]): number {
  let breaks = 0
  for (let i = 1; i < bodies.length; i++) {
    const before = bodies[i - 1] as { messages: unknown[]; tools?: unknown[] }
    const after = bodies[i] as { messages: unknown[]; tools?: unknown[] }
    const sameTools = JSON.stringify(before.tools ?? []) === JSON.stringify(after.tools ?? [])
    const extends_ = before.messages.every(
      (message, index) => JSON.stringify(message) === JSON.stringify(after.messages[index]),
    )
    if (!sameTools || !extends_) breaks++
  }
  return breaks
}

export interface ScenarioResult {
  firstRequest: number
  total: number
  requests: number
  breaks: number
  /** The biggest tool result sent, in tokens. */
  largestToolResult: number
  /** Tokens of the attachment text inside the first request (scenario c). */
  attachmentTokens?: number
  status: string
}

interface Call {
  name: string
  arguments: Record<string, unknown>
}

const cli = (command: string): Call => ({ name: 'cli', arguments: { command } })
const done = (message: string, attachments?: string[]): Call => ({
  name: 'done',
  arguments: { message, ...(attachments && { attachments }) },
})

/** One scripted conversation: what the user asks and the calls a capable model makes, per mode. */
interface Scenario {
  id: string
  title: string
  prompt: (ctx: ScenarioContext) => string
  attachments?: () => Promise<AgentAttachment[]>
  setup?: (ctx: ScenarioContext) => Promise<void>
  calls: (mode: Mode, ctx: ScenarioContext) => Array<Call | { text: string }>
}

interface ScenarioContext {
  root: string
  siteUrl: string
  toolsets: readonly Toolset[]
}

const BOOK = '/sales.xlsx'
const sheetArgs = { path: BOOK, sheet: 'Sales' }

export const SCENARIOS: Scenario[] = [
  {
    id: 'a',
    title: 'plain question',
    prompt: () => 'hello',
    calls: () => [{ text: 'Hello! How can I help you with your documents today?' }],
  },
  {
    id: 'b',
    title: '5-step spreadsheet edit',
    prompt: () => `In ${BOOK}, add a Total row under the figures and save it.`,
    setup: async (ctx) => {
      const workspace = createWorkspace({ root: ctx.root, history: false })
      const session = createToolSession({ toolsets: ctx.toolsets, workspace })
      const rows = [
        ['Region', 'Sales'],
        ['North', 1200],
        ['South', 950],
        ['West', 1430],
      ]
      for (const [name, args] of [
        ['spreadsheet_create', { path: BOOK, sheet: 'Sales' }],
        ['spreadsheet_set_range', { ...sheetArgs, start: 'A1', values: rows }],
        ['spreadsheet_save', { path: BOOK }],
      ] as const) {
        const result = await invoke(session, name, args)
        if (!result.ok) throw new Error(`setup ${name}: ${result.error}`)
      }
      await session.dispose()
      await workspace.close()
    },
    calls: (mode) =>
      mode === 'api'
        ? [
            { name: 'open_toolset', arguments: { toolset: 'spreadsheet' } },
            { name: 'spreadsheet_open', arguments: { path: BOOK } },
            { name: 'spreadsheet_set_range', arguments: { ...sheetArgs, start: 'A5', values: [['Total']] } },
            {
              name: 'spreadsheet_set_cell_formula',
              arguments: { ...sheetArgs, cell: 'B5', formula: '=SUM(B2:B4)' },
            },
            { name: 'spreadsheet_save', arguments: { path: BOOK } },
            done('Added a Total row (B5 = 3580) and saved the workbook.', [BOOK]),
          ]
        : [
            cli('spreadsheet --help'),
            cli(`spreadsheet open ${BOOK}`),
            cli(`spreadsheet set_range ${BOOK} Sales A5 '[["Total"]]'`),
            cli(`spreadsheet set_cell_formula ${BOOK} Sales B5 '=SUM(B2:B4)'`),
            cli(`spreadsheet save ${BOOK}`),
            done('Added a Total row (B5 = 3580) and saved the workbook.', [BOOK]),
          ],
  },
  {
    id: 'c',
    title: 'question about an attached .docx',
    prompt: () => 'What is this document about, in two sentences?',
    attachments: async () => [
      { name: 'test.docx', bytes: new Uint8Array(await readFile(fixturePath('core', 'report.docx'))) },
    ],
    calls: () => [
      { text: 'It is a sample Word document about AutoGen. It shows headings, a table and a list.' },
    ],
  },
  {
    id: 'd',
    title: 'web page read + one form fill',
    prompt: (ctx) => `Open ${ctx.siteUrl}/form.html and fill in the name Ada Lovelace.`,
    calls: (mode, ctx) =>
      mode === 'api'
        ? [
            { name: 'web_navigate', arguments: { url: `${ctx.siteUrl}/form.html` } },
            { name: 'web_fill_fields', arguments: { fields: [{ id: 'e1', value: 'Ada Lovelace' }] } },
            done('I filled in the name on the sign-up form; nothing was submitted.'),
          ]
        : [
            cli('web --help'),
            cli(`web navigate ${ctx.siteUrl}/form.html`),
            cli(`web fill_fields '[{"id":"e1","value":"Ada Lovelace"}]'`),
            done('I filled in the name on the sign-up form; nothing was submitted.'),
          ],
  },
  {
    id: 'e',
    title: 'run using three toolsets',
    prompt: () =>
      'Convert /notes.md to text, put its first line into a new workbook /summary.xlsx, and list /.',
    setup: async (ctx) => {
      const workspace = createWorkspace({ root: ctx.root, history: false })
      await workspace.writeFile('/notes.md', '# Quarterly notes\n\nSales rose in every region.\n')
      await workspace.close()
    },
    calls: (mode) =>
      mode === 'api'
        ? [
            { name: 'open_toolset', arguments: { toolset: 'convert' } },
            { name: 'convert_to_markdown', arguments: { path: '/notes.md' } },
            { name: 'open_toolset', arguments: { toolset: 'spreadsheet' } },
            { name: 'spreadsheet_create', arguments: { path: '/summary.xlsx', sheet: 'Summary' } },
            {
              name: 'spreadsheet_set_cell_value',
              arguments: { path: '/summary.xlsx', sheet: 'Summary', cell: 'A1', value: 'Quarterly notes' },
            },
            { name: 'spreadsheet_save', arguments: { path: '/summary.xlsx' } },
            { name: 'open_toolset', arguments: { toolset: 'files' } },
            { name: 'files_list', arguments: { path: '/' } },
            done('Created /summary.xlsx with the first line of the notes.', ['/summary.xlsx']),
          ]
        : [
            cli('convert --help'),
            cli('convert to_markdown /notes.md'),
            cli('spreadsheet --help'),
            cli('spreadsheet create /summary.xlsx --sheet Summary'),
            cli(`spreadsheet set_cell_value /summary.xlsx Summary A1 'Quarterly notes'`),
            cli('spreadsheet save /summary.xlsx'),
            cli('files list /'),
            done('Created /summary.xlsx with the first line of the notes.', ['/summary.xlsx']),
          ],
  },
]

function turnOf(step: Call | { text: string }): Turn {
  return 'text' in step
    ? { text: step.text }
    : { toolCalls: [{ name: step.name, arguments: step.arguments }] }
}

/** The toolsets of the app; the browser starts only when a scenario browses. */
async function appToolsets(dataDir: string): Promise<Toolset[]> {
  const browser: BrowserEnvironment = {
    dataDir,
    settings: () => ({
      mode: 'bundled-chromium',
      executablePath: '/usr/bin/chromium',
      profileDir: null,
      cdpEndpoint: null,
      allowLocalNetwork: true,
      searchUrl: 'http://127.0.0.1:9/search?q={query}',
    }),
  }
  return loadBuiltinToolsets({ browser })
}

/** Runs one scenario in one mode and measures what the model was sent. */
export async function runScenario(
  llm: ScriptedLlm,
  scenario: Scenario,
  mode: Mode,
  dirs: { root: string; data: string },
  siteUrl: string,
): Promise<ScenarioResult> {
  llm.reset()
  // Every toolset is offered to every scenario: the cost of having them is what is measured.
  const toolsets = await appToolsets(dirs.data)
  const ctx: ScenarioContext = { root: dirs.root, siteUrl, toolsets }
  await scenario.setup?.(ctx)
  const steps = scenario.calls(mode, ctx)
  llm.push(...steps.map(turnOf))
  const client = createLlmClient(
    scriptedProvider(llm, 'openai-compatible', {
      id: 'scripted',
      name: 'Scripted',
      contextWindow: 128_000,
      apiKey: 'sk-bench',
    }),
    { timeoutMs: 30_000, maxRetries: 0, sleep: async () => {} },
  )
  const workspace = createWorkspace({ root: dirs.root, history: false })
  const attachments = (await scenario.attachments?.()) ?? []
  const converter = createConverter({ ocr: false })
  const result = await runAgent({
    prompt: scenario.prompt(ctx),
    model: client,
    toolsets,
    workspace,
    attachments,
    converter,
    interactionMode: mode,
  })
  await workspace.close()
  await converter.dispose()
  const bodies = chatBodies(llm.requests)
  checkCallsWereOffered(bodies, steps, mode)
  const tokens = bodies.map(requestTokens)
  return {
    firstRequest: tokens[0] ?? 0,
    total: tokens.reduce((a, b) => a + b, 0),
    requests: bodies.length,
    breaks: prefixBreaks(bodies),
    largestToolResult: largestToolResult(bodies),
    ...(attachments.length > 0 && { attachmentTokens: attachmentTokens(bodies[0]) }),
    status: result.status,
  }
}

function chatBodies(requests: readonly RecordedRequest[]): unknown[] {
  return requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body)
}

/** The scripted model may only call what the request offered it, or the measurement would flatter Bureau. */
function checkCallsWereOffered(
  bodies: readonly unknown[],
  steps: Array<Call | { text: string }>,
  mode: Mode,
) {
  steps.forEach((step, index) => {
    if ('text' in step) return
    const tools = ((bodies[index] as { tools?: Array<{ function: { name: string } }> })?.tools ?? []).map(
      (t) => t.function.name,
    )
    if (!tools.includes(step.name))
      throw new Error(
        `request ${index + 1} (${mode}) did not offer ${step.name}: it offered ${tools.join(', ')}`,
      )
  })
}

function largestToolResult(bodies: readonly unknown[]): number {
  const last = bodies.at(-1) as { messages?: SentMessage[] } | undefined
  const results = (last?.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => countTokens(m.content ?? ''))
  return Math.max(0, ...results)
}

/** Tokens of the converted attachment inside the first user message (between its markers). */
function attachmentTokens(body: unknown): number {
  const messages = (body as { messages?: SentMessage[] }).messages ?? []
  const user = messages.find((m) => m.role === 'user')?.content ?? ''
  const start = user.indexOf('\n\n')
  return start < 0 ? 0 : countTokens(user.slice(start))
}

export function scenarioRoot(base: string, id: string, mode: Mode): { root: string; data: string } {
  return { root: join(base, `${id}-${mode}`, 'workspace'), data: join(base, `${id}-${mode}`, 'data') }
}
