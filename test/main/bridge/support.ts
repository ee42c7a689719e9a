import OpenAI from 'openai'
import { expect } from 'vitest'
import { runCli, startCli } from '../../support/builtCli'
import type { ScriptedLlm } from '../../support/scriptedLlm'

/** Points the app at the scripted server through the env overrides (API interaction mode). */
export function llmEnv(llm: ScriptedLlm): NodeJS.ProcessEnv {
  return {
    BUREAU_PROVIDER: 'openai',
    BUREAU_BASE_URL: llm.baseUrl,
    BUREAU_MODEL: 'scripted-model',
    BUREAU_API_KEY: 'sk-bridge-test',
    BUREAU_INTERACTION_MODE: 'api',
    BUREAU_WORKSPACE: '',
  }
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
