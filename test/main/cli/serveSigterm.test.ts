import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { IpcClient } from '../../../src/shared/ipc'
import { assertBuilt, startCli } from '../../support/builtCli'
import { httpIpcClient } from '../../support/httpIpcClient'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { tempDirs } from '../../support/tempDir'

// Through the built `bureau serve`: a run stuck on I/O (a model request that is never
// answered) neither survives chat.cancel into the next run of the conversation nor keeps the host
// alive after SIGTERM. One host for the file: the SIGTERM test runs last and ends it.
const TOKEN = 'sigterm-token'
const dirs = tempDirs('bureau-sigterm-')
let llm: ScriptedLlm
let child: ChildProcess
let client: IpcClient
const stderr: string[] = []
const events: Array<{ event: string; payload: Record<string, unknown> }> = []

beforeAll(async () => {
  assertBuilt()
  llm = await startScriptedLlm()
  const env = scriptedProviderEnv(llm, 'sk-sigterm', { BUREAU_INTERACTION_MODE: 'api', BUREAU_WORKSPACE: '' })
  const served = await startCli(
    [
      'serve',
      '--port',
      '0',
      '--token',
      TOKEN,
      '--data-dir',
      await dirs.make(),
      '--workspace',
      await dirs.make(),
    ],
    /OpenAI-compatible API at (http:\/\/127\.0\.0\.1:\d+)\/v1/,
    { env },
  )
  child = served.child
  child.stderr?.on('data', (d: Buffer) => stderr.push(String(d)))
  const http = httpIpcClient(served.match[1] ?? '', TOKEN)
  client = http.client
  for (const event of ['agent.done', 'chat.delta'] as const)
    client.on(event, (payload) => events.push({ event, payload: payload as Record<string, unknown> }))
  await http.ready
}, 60_000)

afterAll(async () => {
  client?.close()
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await llm?.close()
  await dirs.cleanup()
})

const doneOf = (runId: string) =>
  vi.waitUntil(() => events.find((e) => e.event === 'agent.done' && e.payload.runId === runId), {
    timeout: 20_000,
    interval: 20,
  })

describe('bureau serve with a stuck run', () => {
  it('chat.cancel ends a run whose model request never answers; the next run of the conversation works', async () => {
    llm.push({ hang: true }, { text: 'Back again.' })
    const stuck = await client.invoke('chat.send', { text: 'This one hangs' })
    await llm.waitForRequests(1, { timeoutMs: 10_000 })
    expect(await client.invoke('chat.cancel', { runId: stuck.runId })).toEqual({ cancelled: true })
    const cancelled = (await doneOf(stuck.runId))?.payload as { message: { status: string } }
    expect(cancelled.message.status).toBe('cancelled')
    // The pending request itself was dropped, not left waiting behind the next run.
    await llm.waitUntil(() => llm.requests[0]?.aborted === true)
    const next = await client.invoke('chat.send', { conversationId: stuck.conversationId, text: 'Again?' })
    const done = (await doneOf(next.runId))?.payload as { message: { status: string; text: string } }
    expect(done.message).toMatchObject({ status: 'done', text: 'Back again.' })
  })

  it('SIGTERM ends the host with code 0 while a run waits on a request that never answers', async () => {
    llm.push({ hang: true })
    const stuck = await client.invoke('chat.send', { text: 'Hang until the host stops' })
    await vi.waitUntil(() => llm.requests.length === 3, { timeout: 10_000, interval: 20 })
    expect(stuck.runId).toEqual(expect.any(String))
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    const started = performance.now()
    child.kill('SIGTERM')
    const exit = await exited
    console.info(
      `serve after SIGTERM with a stuck run: exited in ${Math.round(performance.now() - started)} ms`,
    )
    expect(exit).toEqual({ code: 0, signal: null })
    // It shut down cleanly (the run was cancelled), not by the shutdown deadline.
    expect(stderr.join('')).not.toContain('did not shut down cleanly')
    await llm.waitUntil(() => llm.requests[2]?.aborted === true)
  }, 30_000)
})
