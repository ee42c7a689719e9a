import type { LlamaGrammar } from 'node-llama-cpp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { doneSpec } from '../../../../src/main/agent/loop/agentTools'
import { createLlmClient, type ToolSpec } from '../../../../src/main/llm'
import { LocalRuntime } from '../../../../src/main/llm/local/localRuntime'
import { toolCallGrammar, withCommandRules } from '../../../../src/main/llm/local/toolGrammar'
import { parseJsonProtocolReply } from '../../../../src/main/llm/toolProtocol/jsonProtocol'
import type { ResolvedProvider } from '../../../../src/main/llm/types'
import { buildCliTool, cliCommandPrefixes, type Toolset } from '../../../../src/main/tools'
import { TINY_MODEL } from '../../../support/tinyModel'
import { filesToolset } from '../../agent/support'

const MODEL = TINY_MODEL
const runtime = new LocalRuntime({ idleUnloadMs: () => 0, threads: 1 })
let files: Toolset
let tools: ToolSpec[]
let grammar: LlamaGrammar

function cliSpec(toolsets: readonly Toolset[]): ToolSpec {
  const { function: fn } = buildCliTool()
  return {
    name: fn.name,
    description: fn.description,
    parameters: fn.parameters as Record<string, unknown>,
    command: { argument: 'command', prefixes: cliCommandPrefixes(toolsets) },
  }
}

beforeAll(async () => {
  files = await filesToolset()
  tools = [cliSpec([files]), doneSpec('agent')]
  grammar = await toolCallGrammar(await runtime.backend(), tools)
}, 120_000)

afterAll(async () => {
  await runtime.unload()
})

describe('CLI mode grammar: a command starts with a real toolset and method', () => {
  it('lists help, each toolset help and every method of the toolsets as command prefixes', () => {
    const prefixes = cliCommandPrefixes([files])
    expect(prefixes.slice(0, 4)).toEqual(['help', '--help', 'files --help', 'files -h'])
    expect(prefixes).toContain('files list')
    expect(prefixes).toContain('files write_text')
    expect(prefixes).toHaveLength(4 + Object.keys(files.methods).length)
  })

  it('puts a rule for the command where the JSON grammar holds its placeholder, and refuses a grammar without one', () => {
    const json = 'root ::= "{" "\\"command\\"" ":" val1 "}"\nval1 ::= "\\"BUREAUCOMMANDSLOT0\\""\n'
    const spec: ToolSpec = {
      ...cliSpec([files]),
      command: { argument: 'command', prefixes: ['help', 'files list'] },
    }
    const text = withCommandRules(json, [spec])
    expect(text).toContain('val1 ::= bureau-command-0')
    expect(text).toContain(
      'bureau-command-0 ::= "\\"" ( "help" | "files list" ) ( " " bureau-command-char* )? "\\""',
    )
    expect(text).not.toContain('BUREAUCOMMANDSLOT')
    expect(() => withCommandRules('root ::= "x"', [spec])).toThrow(/no place for the command of "cli"/)
  })

  it('llama.cpp accepts the grammar: real methods and help pass, an invented toolset or method does not', () => {
    // The JSON grammar ends a reply with four newlines (node-llama-cpp's stop trigger); `_testText` wants all of it.
    // `_testText` is node-llama-cpp's own (internal) check of a whole text against the grammar.
    const tester = grammar as unknown as { _testText(text: string): boolean }
    const accepts = (reply: string) => tester._testText(`${reply}\n\n\n\n`)
    const call = (command: string) => accepts(JSON.stringify({ method: 'cli', command }))
    for (const ok of [
      'files list /',
      'files list',
      'files write_text /a.txt "hi there"',
      'help',
      'files --help',
    ])
      expect(call(ok), ok).toBe(true)
    for (const bad of ['nonsense list /', 'files frobnicate /', 'files listx', 'Files list', ' files list'])
      expect(call(bad), bad).toBe(false)
    expect(accepts('{"method": "cli", "command": "files list /"}')).toBe(true)
    expect(accepts(JSON.stringify({ method: 'done', message: 'All done.', attachments: [] }))).toBe(true)
  })
})

// Generous limit: loading node-llama-cpp and the model is slow on a loaded machine.
describe('CLI mode grammar with the tiny random-weights model', () => {
  const provider: ResolvedProvider = {
    id: 'local',
    name: 'Local model',
    kind: 'local',
    baseUrl: 'http://127.0.0.1',
    model: 'tiny',
    apiKeyEnv: undefined,
    apiKey: undefined,
    contextWindow: undefined,
    maxOutputTokens: 48,
    interactionMode: 'cli',
    cacheType: 'prefix',
    supportsTools: false,
    supportsVision: false,
    headers: {},
    temperature: 0,
  }

  it('every cli call the model writes names a real toolset and method, or help', async () => {
    const client = createLlmClient(provider, { local: { runtime, modelPath: async () => MODEL } })
    const prefixes = cliCommandPrefixes([files])
    let calls = 0
    for (const prompt of [
      'List the files.',
      'Write a note to /a.txt.',
      'What can you do?',
      'Read /notes.md',
    ]) {
      const result = await client.chat({
        messages: [{ role: 'user', content: prompt }],
        json: true,
        protocolTools: [tools[0] as ToolSpec],
      })
      const reply = parseJsonProtocolReply(result.message.content, 'c1')
      if (reply.kind !== 'call') expect.fail(`not a call: ${result.message.content}`)
      const command = String(JSON.parse(reply.call.arguments).command)
      expect(
        prefixes.some((p) => command === p || command.startsWith(`${p} `)),
        command,
      ).toBe(true)
      calls++
    }
    expect(calls).toBe(4)
  })
})
