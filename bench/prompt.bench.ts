import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { openToolsetSpec } from '../src/main/agent/disclosure/openToolsetTool'
import { composeSystemPrompt } from '../src/main/agent/prompt/composeSystemPrompt'
import { buildApiTools, type Toolset } from '../src/main/tools'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { FORM_PAGE } from '../test/main/browser/support/fixturePages'
import { startFixtureServer } from '../test/main/browser/support/fixtureServer'
import { startScriptedLlm } from '../test/support/scriptedLlm'
import { type Mode, runScenario, SCENARIOS, type ScenarioResult, scenarioRoot } from './promptScenarios'
import type { BenchRow } from './types'

// Token economy: what the real agent sends the scripted model per scenario and mode, counted
// with o200k_base; and, side by side, what a model must read before its first call of a capability in
// Bureau vs the peers' MCP servers (their `tools/list`, counted as the same function-tool JSON).

/** Total input tokens of the same scenarios at fa30c27, before progressive disclosure (no open or help steps). */
const BEFORE: Record<string, Record<Mode, number>> = {
  a: { api: 28_015, cli: 14_737 },
  b: { api: 140_787, cli: 74_371 },
  c: { api: 29_109, cli: 15_831 },
  d: { api: 84_928, cli: 45_103 },
  e: { api: 169_199, cli: 89_521 },
}

function targetFor(id: string, mode: Mode, result: ScenarioResult): Pick<BenchRow, 'target' | 'pass'> {
  if (id === 'a') return { target: '≤ 1,500 (first request)', pass: result.firstRequest <= 1500 }
  if (id === 'b') return { target: '≤ 30,000 total', pass: result.total <= 30_000 }
  const before = BEFORE[id]?.[mode]
  if ((id === 'd' || id === 'e') && before)
    return { target: `≤ ${Math.round(before / 4)} (¼ of ${before})`, pass: result.total <= before / 4 }
  return before ? { target: `(was ${before})` } : {}
}

async function scenarioRows(): Promise<BenchRow[]> {
  const llm = await startScriptedLlm()
  const site = await startFixtureServer({ '/form.html': FORM_PAGE })
  const base = await mkdtemp(join(tmpdir(), 'bureau-prompt-bench-'))
  const rows: BenchRow[] = []
  try {
    for (const scenario of SCENARIOS)
      for (const mode of ['api', 'cli'] as const) {
        const result = await runScenario(
          llm,
          scenario,
          mode,
          scenarioRoot(base, scenario.id, mode),
          site.origin,
        )
        const label = `(${scenario.id}) ${scenario.title}, ${mode}`
        const overhead =
          result.attachmentTokens !== undefined
            ? `; attachment ${result.attachmentTokens}, overhead ${result.firstRequest - result.attachmentTokens}`
            : ''
        rows.push({
          name: label,
          value: result.total,
          unit: 'input tokens',
          ...targetFor(scenario.id, mode, result),
          note: `first request ${result.firstRequest}; ${result.requests} requests; ${result.breaks} prefix breaks; largest tool result ${result.largestToolResult}${overhead}; ${result.status}`,
        })
        if (result.largestToolResult > 8000)
          rows.push({
            name: `${label}: largest tool result`,
            value: result.largestToolResult,
            unit: 'tokens',
            target: '≤ 8,000',
            pass: false,
          })
      }
  } finally {
    await llm.close()
    await site.close()
    await rm(base, { recursive: true, force: true })
  }
  return rows
}

interface McpTool {
  name: string
  description?: string
  inputSchema: unknown
}

/** A peer's tools as the same function-tool JSON Bureau sends, counted. */
function mcpToolTokens(tools: readonly McpTool[]): number {
  const asFunctions = tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema },
  }))
  return countTokens(JSON.stringify(asFunctions))
}

async function listMcpTools(command: string, args: string[]): Promise<McpTool[]> {
  const client = new Client({ name: 'bureau-bench', version: '1.0.0' })
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' })
  await client.connect(transport)
  try {
    return (await client.listTools()).tools as McpTool[]
  } finally {
    await client.close()
  }
}

/**
 * Bureau's cost before the first call of a toolset in API mode: the system prompt's line for it, the
 * `open_toolset` call and its result, and the toolset's function tools.
 */
function bureauFirstCallTokens(toolsets: readonly Toolset[], name: string): number {
  const toolset = toolsets.find((t) => t.name === name)
  if (!toolset) throw new Error(`no ${name} toolset`)
  const line = `- ${toolset.name}: ${toolset.summary}`
  const open = JSON.stringify(openToolsetSpec(toolsets.map((t) => t.name)))
  const call = `open_toolset {"toolset":"${name}"} Opened ${name}: its methods are in your tools now.`
  return (
    countTokens(line) +
    countTokens(open) +
    countTokens(call) +
    countTokens(JSON.stringify(buildApiTools([toolset])))
  )
}

const run = promisify(execFile)

/** excel-mcp-server from PyPI in a throwaway virtual environment; undefined with the reason when it cannot be installed. */
async function excelMcpServer(dir: string): Promise<{ command: string } | { skipped: string }> {
  const venv = join(dir, 'venv')
  try {
    await run('/usr/bin/python3', ['-m', 'venv', venv], { timeout: 120_000 })
    await run(join(venv, 'bin', 'pip'), ['install', '--quiet', 'excel-mcp-server'], { timeout: 300_000 })
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error)
    const reason = /No matching distribution|Could not find a version/.test(text)
      ? 'excel-mcp-server is not on the package index this machine reaches'
      : (text.split('\n').find((l) => l.trim()) ?? 'pip failed')
    return { skipped: `skipped: ${reason}` }
  }
  const command = join(venv, 'bin', 'excel-mcp-server')
  return existsSync(command)
    ? { command }
    : { skipped: 'skipped: the package installed no excel-mcp-server command' }
}

async function peerRows(): Promise<BenchRow[]> {
  const toolsets = await loadBuiltinToolsets({
    browser: { dataDir: tmpdir(), settings: () => ({ mode: 'bundled-chromium' }) as never },
  })
  const rows: BenchRow[] = []
  const web = bureauFirstCallTokens(toolsets, 'web')
  const cli = join(dirname(createRequire(import.meta.url).resolve('@playwright/mcp/package.json')), 'cli.js')
  const playwright = mcpToolTokens(
    await listMcpTools(process.execPath, [cli, '--headless', '--browser', 'chromium']),
  )
  rows.push(
    {
      name: 'first call, browser: Bureau web (API)',
      value: web,
      unit: 'tokens',
      target: `≤ 0.5 × @playwright/mcp (${playwright})`,
      pass: web <= playwright / 2,
    },
    {
      name: 'first call, browser: @playwright/mcp tools/list',
      value: playwright,
      unit: 'tokens',
      note: '@playwright/mcp 0.0.83 over stdio, official MCP SDK client',
    },
  )
  const sheet = bureauFirstCallTokens(toolsets, 'spreadsheet')
  const scratch = await mkdtemp(join(tmpdir(), 'bureau-excel-mcp-'))
  try {
    const excel = await excelMcpServer(scratch)
    if ('skipped' in excel) {
      rows.push({
        name: 'first call, spreadsheet: Bureau spreadsheet (API)',
        value: sheet,
        unit: 'tokens',
        note: 'peer row skipped, see below',
      })
      rows.push({
        name: 'first call, spreadsheet: excel-mcp-server tools/list',
        value: Number.NaN,
        unit: 'tokens',
        note: excel.skipped,
      })
    } else {
      const peer = mcpToolTokens(await listMcpTools(excel.command, ['stdio']))
      rows.push(
        {
          name: 'first call, spreadsheet: Bureau spreadsheet (API)',
          value: sheet,
          unit: 'tokens',
          target: `≤ 0.5 × excel-mcp-server (${peer})`,
          pass: sheet <= peer / 2,
        },
        { name: 'first call, spreadsheet: excel-mcp-server tools/list', value: peer, unit: 'tokens' },
      )
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
  for (const mode of ['api', 'cli'] as const) {
    const system = composeSystemPrompt({ toolsets, subagents: [], mode, protocol: 'native', role: 'agent' })
    rows.push({
      name: `system prompt, ${mode}`,
      value: countTokens(system),
      unit: 'tokens',
      note: `${system.length} characters`,
    })
  }
  return rows
}

export default async function promptBench(): Promise<BenchRow[]> {
  return [...(await scenarioRows()), ...(await peerRows())]
}
