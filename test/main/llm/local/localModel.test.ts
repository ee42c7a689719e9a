import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAgent } from '../../../../src/main/agent'
import { createLlmClient, type LlmClient, type ToolSpec } from '../../../../src/main/llm'
import { LocalRuntime } from '../../../../src/main/llm/local/localRuntime'
import { parseJsonProtocolReply } from '../../../../src/main/llm/toolProtocol/jsonProtocol'
import type { ResolvedProvider, StreamEvent } from '../../../../src/main/llm/types'
import { apiToolName, getCatalog, type Toolset } from '../../../../src/main/tools'
import { fixturePath } from '../../../support/fixtures'
import { tempDirs } from '../../../support/tempDir'
import { TINY_MODEL } from '../../../support/tinyModel'
import { filesToolset, workspaceAt } from '../../agent/support'

const MODEL = TINY_MODEL

function localProvider(extra: Partial<ResolvedProvider> = {}): ResolvedProvider {
  return {
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
    ...extra,
  }
}

// One thread: the test machine's cores are shared, and llama.cpp's workers spin when they wait for each other.
const runtime = new LocalRuntime({ idleUnloadMs: () => 0, threads: 1 })
const models = new Map([['tiny', MODEL]])
const host = {
  runtime,
  modelPath: async (id: string) => {
    const path = models.get(id)
    if (!path) throw new Error(`no model ${id}`)
    return path
  },
}
const client = (extra: Partial<ResolvedProvider> = {}): LlmClient =>
  createLlmClient(localProvider(extra), { local: host })
const dirs = tempDirs('bureau-local-')
let files: Toolset

beforeAll(async () => {
  files = await filesToolset()
})
afterAll(async () => {
  await runtime.unload()
  await dirs.cleanup()
})

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

// Generous limits: loading node-llama-cpp and the model is slow on a loaded machine.
describe('the tiny local model (llama.cpp)', () => {
  describe('local provider: the embedded llama.cpp with the tiny random-weights model', {
    timeout: 120_000,
  }, () => {
    it('loads the model, streams a reply in pieces and reports usage and the context window', async () => {
      const events = await collect(client().stream({ messages: [{ role: 'user', content: 'Say hello.' }] }))
      const texts = events.filter((e) => e.type === 'text')
      expect(texts.length).toBeGreaterThan(1)
      const done = events.at(-1)
      expect(done?.type).toBe('done')
      if (done?.type !== 'done') return
      expect(done.result.message.content).toBe(texts.map((e) => (e.type === 'text' ? e.text : '')).join(''))
      expect(done.result.usage.outputTokens).toBeGreaterThan(0)
      expect(done.result.usage.inputTokens).toBeGreaterThan(0)
      expect(runtime.current).toBe(MODEL)
      // The fixture was trained with 4096 tokens of context: that is the window, below the automatic cap.
      expect(await client().contextWindow()).toBe(4096)
    })

    it('a grammar-constrained call parses and its arguments validate against the files toolset schema', async () => {
      const tools: ToolSpec[] = getCatalog([files], 'api').tools.map((tool) => ({
        name: tool.function.name,
        description: tool.function.description,
        parameters: tool.function.parameters as Record<string, unknown>,
      }))
      const result = await client({ maxOutputTokens: 96 }).chat({
        messages: [{ role: 'user', content: 'List the files in /.' }],
        json: true,
        protocolTools: tools,
      })
      const reply = parseJsonProtocolReply(result.message.content, 'c1')
      expect(reply.kind).toBe('call')
      if (reply.kind !== 'call') return
      const name = reply.call.name
      const key = Object.keys(files.methods).find((m) => apiToolName('files', m) === name)
      expect(key, `the model called ${name}, a files method`).toBeDefined()
      const method = files.methods[key as string] as {
        input: { safeParse(v: unknown): { success: boolean } }
      }
      const args: unknown = JSON.parse(reply.call.arguments)
      const parsed = method.input.safeParse(args) as { success: boolean; error?: unknown }
      expect(parsed.success, `${name} ${reply.call.arguments} ${String(parsed.error)}`).toBe(true)
    })

    it('a full agent run in CLI mode ends in done: the grammar allows only done on the last step', async () => {
      const root = await dirs.make()
      const result = await runAgent({
        prompt: 'What files are there?',
        model: client({ maxOutputTokens: 40 }),
        toolsets: [files],
        workspace: workspaceAt(root),
        maxIterations: 2,
      })
      expect(result.status).toBe('done')
      expect(result.message.trim()).not.toBe('')
    })

    it('cancellation stops the generation mid-stream', async () => {
      const controller = new AbortController()
      let pieces = 0
      const stream = client({ maxOutputTokens: 2000 }).stream({
        messages: [{ role: 'user', content: 'Write a long story.' }],
        signal: controller.signal,
      })
      const run = (async () => {
        for await (const event of stream) {
          if (event.type !== 'text') continue
          pieces++
          if (pieces === 3) controller.abort()
        }
      })()
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' })
      expect(pieces).toBeGreaterThanOrEqual(3)
      expect(pieces).toBeLessThan(2000)
      // The runtime is free again: the next request gets an answer.
      const after = await client({ maxOutputTokens: 4 }).chat({ messages: [{ role: 'user', content: 'Hi' }] })
      expect(after.usage.outputTokens).toBeGreaterThan(0)
    })

    it('unloads the model, and an idle timeout unloads it by itself', async () => {
      await runtime.unload()
      expect(runtime.current).toBeUndefined()
      const idle = new LocalRuntime({ idleUnloadMs: () => 20, threads: 1 })
      const idleClient = createLlmClient(localProvider({ maxOutputTokens: 2 }), {
        local: { ...host, runtime: idle },
      })
      await idleClient.chat({ messages: [{ role: 'user', content: 'Hi' }] })
      expect(idle.current).toBe(MODEL)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(idle.current).toBeUndefined()
    })

    it('a model too large for the free memory says so and what to do, and loads nothing', async () => {
      // The real memory check of node-llama-cpp, with all of this machine's RAM kept for other programs.
      const starved = new LocalRuntime({ idleUnloadMs: () => 0, threads: 1, ramPadding: (total) => total })
      const starvedClient = createLlmClient(localProvider(), { local: { ...host, runtime: starved } })
      await expect(starvedClient.chat({ messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject(
        {
          code: 'TOO_LARGE',
          message: expect.stringMatching(
            /does not fit in this machine's free memory .*too large for the available RAM.*choose a smaller model/,
          ),
        },
      )
      expect(starved.current).toBeUndefined()
    })

    it('a file that is not a model gives a clear error and loads nothing', async () => {
      models.set('broken', fixturePath('core', 'notes.json'))
      await expect(
        client({ model: 'broken' }).chat({ messages: [{ role: 'user', content: 'Hi' }] }),
      ).rejects.toThrow(/Could not load the model .*notes\.json/)
      expect(runtime.current).toBeUndefined()
    })
  })
})
