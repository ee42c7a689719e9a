import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, cliPath, repoRoot } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

// `bureau mcp` read with raw JSON-RPC lines: what an SDK client never sends. Every reply within 60 s (generous: a busy 2-core machine).
const dirs = tempDirs('bureau-mcp-hostile-')
let child: ChildProcessWithoutNullStreams
let stderr = ''
const replies: Array<Record<string, unknown>> = []
let waiters: Array<() => void> = []

function send(line: string): void {
  child.stdin.write(`${line}\n`)
}

async function reply(match: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (;;) {
    const found = replies.findIndex(match)
    if (found !== -1) return replies.splice(found, 1)[0] as Record<string, unknown>
    if (child.exitCode !== null) throw new Error(`bureau mcp exited with ${child.exitCode}: ${stderr}`)
    await new Promise<void>((resolve) => waiters.push(resolve))
  }
}

const byId = (id: unknown) => (r: Record<string, unknown>) => JSON.stringify(r.id) === JSON.stringify(id)
const errorOf = (r: Record<string, unknown>) => r.error as { code: number; message: string }

beforeAll(async () => {
  assertBuilt()
  child = spawn(
    process.execPath,
    [
      cliPath,
      'mcp',
      '--workspace',
      await dirs.make(),
      '--data-dir',
      await dirs.make(),
      '--toolsets',
      'files',
    ],
    { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let buffer = ''
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    const lines = buffer.split('\n')
    buffer = lines.pop() ?? ''
    for (const line of lines) if (line.trim()) replies.push(JSON.parse(line))
    const wake = waiters
    waiters = []
    for (const w of wake) w()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  child.on('exit', () => {
    for (const w of waiters.splice(0)) w()
  })
}, 60_000)

afterAll(async () => {
  if (child.exitCode === null) child.kill()
  await dirs.cleanup()
})

describe('bureau mcp against hostile JSON-RPC lines', () => {
  it('refuses tools/call before initialize, then initializes', async () => {
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'files_list', arguments: {} },
      }),
    )
    const early = await reply(byId(1))
    expect(errorOf(early).code).toBe(-32600)
    expect(errorOf(early).message).toContain('not initialized: send "initialize" before "tools/call"')
    send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    )
    expect((await reply(byId(2))).result).toMatchObject({ serverInfo: { name: 'bureau' } })
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))
    send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }))
    expect(JSON.stringify((await reply(byId(3))).result)).toContain('files_read')
  }, 60_000)

  it('answers requests with invalid ids, batches and broken JSON with errors of id null', async () => {
    send('{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}')
    const objectId = await reply(byId(null))
    expect(errorOf(objectId).code).toBe(-32600)
    expect(errorOf(objectId).message).toMatch(/^Invalid Request/)
    send('{"jsonrpc":"2.0","id":1.5,"method":"ping"}')
    expect(errorOf(await reply(byId(null))).code).toBe(-32600)
    send('[{"jsonrpc":"2.0","id":4,"method":"ping"}]')
    expect(errorOf(await reply(byId(null))).message).toContain('batches are not supported')
    send('{"jsonrpc":"2.0","id":5,')
    expect(errorOf(await reply(byId(null))).code).toBe(-32700)
    send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }))
    expect((await reply(byId(6))).result).toEqual({})
  }, 60_000)

  it('reads a 12 MB call, answers a 33 MB line with an error and goes on', async () => {
    // An unknown tool: the 12 MB line is read and answered (the SDK's own transport stopped at 10 MB).
    const big = (id: number, mb: number) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: { pad: 'x'.repeat(mb * 1024 * 1024) } },
      })
    send(big(7, 12))
    const twelve = await reply(byId(7))
    expect(JSON.stringify(twelve.result ?? twelve.error)).toMatch(/no_such_tool/)
    send(big(8, 33))
    const tooLarge = await reply(byId(null))
    expect(errorOf(tooLarge).code).toBe(-32600)
    expect(errorOf(tooLarge).message).toContain('Request too large: a message may be at most 32 MB')
    send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }))
    expect((await reply(byId(9))).result).toEqual({})
    expect(replies.some(byId(8))).toBe(false)
  }, 60_000)

  it('exits with code 0 when the client closes stdin', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.stdin.end()
    expect(await exited).toBe(0)
  }, 60_000)
})
