import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, expect } from 'vitest'
import { assertBuilt, runCli, startCli } from '../../support/builtCli'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { tempDirs } from '../../support/tempDir'

/** Points the app at the scripted server through the env overrides (API interaction mode). */
export function llmEnv(llm: ScriptedLlm): Record<string, string> {
  return scriptedProviderEnv(llm, 'sk-bridge-test', { BUREAU_INTERACTION_MODE: 'api', BUREAU_WORKSPACE: '' })
}

/** `bureau bridge token create NAME`: the token is the only stdout line. */
export async function createTokenWithCli(dataDir: string, name: string): Promise<string> {
  const result = await runCli(['bridge', 'token', 'create', name, '--data-dir', dataDir])
  if (result.code !== 0) throw new Error(`token create failed (${result.code}): ${result.stderr}`)
  return result.stdout.trim()
}

export interface RunningServe {
  /** `http://127.0.0.1:PORT` */
  url: string
  port: number
  stop(): Promise<number | null>
}

/** The built `bureau serve` on a free port, ready once it printed the /v1 line. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<RunningServe> {
  const server = await startCli(
    ['serve', '--port', '0', ...args],
    /OpenAI-compatible API at (http:\/\/127\.0\.0\.1:(\d+))\/v1/,
    { env },
  )
  return { url: server.match[1] ?? '', port: Number(server.match[2]), stop: server.stop }
}

export function openAiClient(url: string, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${url}/v1`, maxRetries: 0, timeout: 30_000 })
}

export interface ServedBridge {
  /** The scripted model server, reset before each test. */
  llm: ScriptedLlm
  serve: RunningServe
  /** A bridge token created with the CLI before the host started. */
  token: string
  /** The openai client with that token. */
  client: OpenAI
  workspace: string
}

/**
 * Registers the hooks of a suite against the built `bureau serve`: the scripted model, a data folder
 * with one bridge token, a workspace; `serveArgs` are appended to the command line.
 */
export function servedBridgeSuite(options: {
  tempPrefix: string
  tokenName: string
  serveArgs: string[]
}): ServedBridge {
  const dirs = tempDirs(options.tempPrefix)
  const suite = {} as ServedBridge
  beforeAll(async () => {
    assertBuilt()
    suite.llm = await startScriptedLlm()
    const dataDir = await dirs.make()
    suite.workspace = await dirs.make()
    suite.token = await createTokenWithCli(dataDir, options.tokenName)
    suite.serve = await startServe(
      ['--data-dir', dataDir, '--workspace', suite.workspace, ...options.serveArgs],
      llmEnv(suite.llm),
    )
    suite.client = openAiClient(suite.serve.url, suite.token)
  }, 60_000)
  afterAll(async () => {
    await suite.serve?.stop()
    await suite.llm?.close()
    await dirs.cleanup()
  })
  beforeEach(() => suite.llm.reset())
  return suite
}

/** The client keeps the parsed error body's inner object on `error`; rebuild the wire body. */
export const bodyOf = (error: unknown) => ({ error: (error as InstanceType<typeof OpenAI.APIError>).error })

export const statusOf = (error: unknown) => (error as InstanceType<typeof OpenAI.APIError>).status

/**
 * Starts a bureau-chat completion the test can abort and waits until its model request has arrived.
 * `outcome` resolves to the completion or to the error it ended with.
 */
export async function startAbortableChat(client: OpenAI, llm: ScriptedLlm, content: string) {
  const controller = new AbortController()
  const outcome = client.chat.completions
    .create({ model: 'bureau-chat', messages: [{ role: 'user', content }] }, { signal: controller.signal })
    .catch((e: unknown) => e)
  await llm.waitForRequests(1, { timeoutMs: 10_000 })
  return { controller, outcome }
}

/** Asserts OpenAI's error shape `{error: {message, type, param, code}}` and returns the inner error. */
export function expectOpenAiError(body: unknown): {
  message: string
  type: string
  param: string | null
  code: string | null
} {
  expect(body).toEqual({
    error: {
      message: expect.any(String),
      type: expect.any(String),
      param:
        body && typeof body === 'object' && (body as { error?: { param?: unknown } }).error?.param !== null
          ? expect.any(String)
          : null,
      code:
        body && typeof body === 'object' && (body as { error?: { code?: unknown } }).error?.code !== null
          ? expect.any(String)
          : null,
    },
  })
  return (body as { error: { message: string; type: string; param: string | null; code: string | null } })
    .error
}

/** Messages of the chat requests the scripted server received, newest last. */
export function chatRequests(llm: ScriptedLlm) {
  return llm.requests
    .filter((r) => r.endpoint === 'openai.chat')
    .map(
      (r) =>
        r.body as {
          messages: Array<{ role: string; content: unknown }>
          tools?: Array<{ function: { name: string } }>
        },
    )
}

/** Text of a recorded OpenAI message (string content or joined text parts). */
export function messageText(message: { content: unknown } | undefined): string {
  const content = message?.content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('')
  return ''
}
