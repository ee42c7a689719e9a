import { afterAll, beforeAll, beforeEach, vi } from 'vitest'
import { z } from 'zod'
import { type AgentEvent, type AgentResult, runAgent } from '../../../src/main/agent'
import type { RunAgentOptions } from '../../../src/main/agent/types'
import { createLlmClient, type LlmClient } from '../../../src/main/llm'
import type { ResolvedProvider } from '../../../src/main/llm/types'
import { defineToolset, method, sessionState, type Toolset } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import type { RecordedRequest, ScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProvider } from '../../support/scriptedProvider'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { type ScriptedSuite, scriptedSuite } from '../../support/scriptedSuite'
import { stubEnv } from '../../support/stubEnv'

/** An OpenAI-compatible client on the scripted server. */
export function scriptedModel(llm: ScriptedLlm, extra: Partial<ResolvedProvider> = {}): LlmClient {
  return createLlmClient(
    scriptedProvider(llm, 'openai-compatible', {
      id: 'scripted',
      name: 'Scripted',
      contextWindow: 200_000,
      apiKey: 'sk-scripted',
      ...extra,
    }),
    { timeoutMs: 10_000, maxRetries: 0, sleep: async () => {} },
  )
}

export async function filesToolset(): Promise<Toolset> {
  const files = (await loadBuiltinToolsets()).find((t) => t.name === 'files')
  if (!files) throw new Error('the files toolset is not a built-in')
  return files
}

export function workspaceAt(root: string): Workspace {
  return createWorkspace({ root, history: false })
}

export interface AgentSuite extends ScriptedSuite {
  /** The built-in files toolset. */
  files: Toolset
}

/** The hooks of an agent suite: the scripted model and temp folders, and the files toolset. */
export function agentSuite(tempPrefix: string): AgentSuite {
  const suite = scriptedSuite(tempPrefix) as AgentSuite
  beforeAll(async () => {
    suite.files = await filesToolset()
  })
  return suite
}

export interface HostSuite extends ScriptedSuite {
  /** A fresh data folder and workspace folder for each test. */
  dataDir: string
  workspaceDir: string
}

/**
 * The hooks of a suite on the app host: the scripted model is the active provider (the `openai`
 * preset through BUREAU_* variables, tools over the API), with fresh folders for each test.
 */
export function hostSuite(tempPrefix: string, apiKey: string): HostSuite {
  const suite = scriptedSuite(tempPrefix) as HostSuite
  beforeAll(() => stubEnv(scriptedProviderEnv(suite.llm, apiKey, { BUREAU_INTERACTION_MODE: 'api' })))
  afterAll(() => vi.unstubAllEnvs())
  beforeEach(async () => {
    suite.dataDir = await suite.dirs.make()
    suite.workspaceDir = await suite.dirs.make()
  })
  return suite
}

/** Runs the agent and records every event. */
export async function run(
  options: RunAgentOptions,
): Promise<{ result: AgentResult; events: AgentEvent[]; text: string }> {
  const events: AgentEvent[] = []
  const result = await runAgent({
    ...options,
    onEvent: (event) => {
      events.push(event)
      options.onEvent?.(event)
    },
  })
  const text = events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('')
  return { result, events, text }
}

interface SentMessage {
  role: string
  content?: string | null
  tool_call_id?: string
  name?: string
  tool_calls?: Array<{ function: { name: string; arguments: string } }>
}

/** The OpenAI-shaped messages a recorded request carried. */
export function sent(request: RecordedRequest | undefined): SentMessage[] {
  return ((request?.body as { messages?: SentMessage[] } | undefined)?.messages ?? []) as SentMessage[]
}

export function sentTools(request: RecordedRequest | undefined): string[] {
  const tools = (request?.body as { tools?: Array<{ function: { name: string } }> } | undefined)?.tools ?? []
  return tools.map((t) => t.function.name)
}

export function toolMessages(request: RecordedRequest | undefined): SentMessage[] {
  return sent(request).filter((m) => m.role === 'tool')
}

export function systemPrompt(request: RecordedRequest | undefined): string {
  return String(sent(request).find((m) => m.role === 'system')?.content ?? '')
}

/**
 * A toolset with per-session state, to see isolation and release: each session's state gets an id,
 * `touch` returns it, and `disposed` lists the ids released.
 */
export function counterToolset() {
  let next = 0
  const disposed: number[] = []
  const state = sessionState(
    'counter',
    () => ({ id: ++next, touches: 0 }),
    (value) => {
      disposed.push(value.id)
    },
  )
  const toolset = defineToolset({
    name: 'counter',
    summary: 'Counts touches in its own state.',
    methods: {
      touch: method({
        description: 'Touches the counter and returns its instance id and count.',
        input: z.object({}),
        output: z.object({ instance: z.number(), touches: z.number() }),
        risk: 'read',
        run: (_args, ctx) => {
          const value = state.get(ctx)
          value.touches++
          return { instance: value.id, touches: value.touches }
        },
      }),
    },
  })
  return { toolset, disposed }
}

/** A method that waits until its signal fires, recording that it saw the abort. */
export function slowToolset() {
  const seen = { started: false, aborted: false }
  const toolset = defineToolset({
    name: 'slow',
    summary: 'Waits until cancelled.',
    methods: {
      wait: method({
        description: 'Waits (for cancellation tests).',
        input: z.object({}),
        output: z.object({ waited: z.boolean() }),
        risk: 'read',
        run: (_args, ctx) =>
          new Promise((resolve) => {
            seen.started = true
            ctx.signal.addEventListener('abort', () => {
              seen.aborted = true
              resolve({ waited: false })
            })
          }),
      }),
    },
  })
  return { toolset, seen }
}
