import { composeSystemPrompt } from '../src/main/agent/prompt/composeSystemPrompt'
import { LocalRuntime } from '../src/main/llm/local/localRuntime'
import { jsonProtocolInstructions } from '../src/main/llm/toolProtocol/jsonProtocol'
import { loadCatalogue } from '../src/main/models'
import { probeMachine } from '../src/main/models/machineProfile'
import { estimateSpeed } from '../src/main/models/speedEstimate'
import { getCatalog } from '../src/main/tools'
import { loadBuiltinToolsets } from '../src/main/toolsHost'
import { TINY_MODEL } from '../test/support/tinyModel'
import { skippedWithout } from './support'
import type { BenchRow } from './types'

const MODEL = TINY_MODEL
const TOKENS = 64

/**
 * The embedded llama.cpp with the tiny random-weights fixture: load time, time to first token,
 * generation speed, and how long the agent's CLI-mode system prompt takes to process for a plain
 * question (the cost the token-economy work shrinks). One CPU thread: the bench machine is shared.
 */
export default async function bench(): Promise<BenchRow[]> {
  const skipped = skippedWithout(MODEL)
  if (skipped) return skipped
  const runtime = new LocalRuntime({ idleUnloadMs: () => 0, threads: 1 })
  const { LlamaCompletion } = await import('node-llama-cpp')
  const started = performance.now()
  const loaded = await runtime.load(MODEL)
  const loadMs = performance.now() - started

  const toolsets = await loadBuiltinToolsets()
  const tools = getCatalog(toolsets, 'cli').tools.map((t) => ({
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters as Record<string, unknown>,
  }))
  const system = [
    composeSystemPrompt({ toolsets, subagents: [], mode: 'cli', protocol: 'json', role: 'agent' }),
    jsonProtocolInstructions(tools),
  ].join('\n\n')
  const systemTokens = loaded.model.tokenize(system).length
  // The fixture's context is 4096 tokens: process as much of the prompt as fits, and say so.
  const prompt = loaded.model.tokenize(`${system}\n\nUser: What is 2 + 2?\nAssistant:`)
  const fitted = prompt.slice(Math.max(0, prompt.length - (loaded.context.contextSize - 8)))

  const completion = new LlamaCompletion({ contextSequence: loaded.chat.sequence })
  // Prompt processing: the system prompt and a plain question, one output token.
  await loaded.chat.sequence.clearHistory()
  const promptStart = performance.now()
  await completion.generateCompletion(fitted, { maxTokens: 1 })
  const promptMs = performance.now() - promptStart

  await loaded.chat.sequence.clearHistory()
  const genStart = performance.now()
  let first: number | undefined
  let tokens = 0
  await completion.generateCompletion('Once upon a time', {
    maxTokens: TOKENS,
    onToken: (chunk) => {
      first ??= performance.now() - genStart
      tokens += chunk.length
    },
  })
  const genMs = performance.now() - genStart
  completion.dispose({ disposeSequence: false })
  await runtime.unload()
  const ttft = first ?? genMs
  // What the first-run guide shows for the smallest recommended model (an estimate: it was not run here).
  const machine = await probeMachine()
  const smallest = (await loadCatalogue()).sort((a, b) => a.sizeBytes - b.sizeBytes)[0]
  const estimate = smallest && estimateSpeed(smallest, machine)
  return [
    {
      name: 'local model: memory bandwidth probe (speed estimate input)',
      value: machine.memoryBandwidth / 1e9,
      unit: 'GB/s',
      note: `${machine.cpuCores} CPU threads, GPUs: ${machine.gpus.join(', ') || 'none'}`,
    },
    ...(estimate && smallest
      ? [
          {
            name: `local model: estimated speed of ${smallest.name} (first-run guide)`,
            value: estimate.wordsPerSecond,
            unit: 'words/s',
            note: `${estimate.tokensPerSecond.toFixed(1)} tokens/s, limited by ${estimate.limitedBy}`,
          },
        ]
      : []),
    { name: 'local model: load (tiny fixture, 1.7 MB)', value: loadMs, unit: 'ms' },
    { name: 'local model: time to first token', value: ttft, unit: 'ms' },
    {
      name: 'local model: generation speed',
      value: tokens / Math.max((genMs - ttft) / 1000, 0.001),
      unit: 'tokens/s',
      note: `${tokens} tokens, 1 thread`,
    },
    {
      name: 'local model: system prompt + plain question, prompt processing',
      value: promptMs,
      unit: 'ms',
      note: `${fitted.length} of ${prompt.length} prompt tokens fit the 4096 context (system prompt: ${systemTokens} tokens, all built-ins, CLI mode)`,
    },
    {
      name: 'local model: prompt processing speed',
      value: fitted.length / Math.max(promptMs / 1000, 0.001),
      unit: 'tokens/s',
    },
  ]
}
