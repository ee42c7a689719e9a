import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppConverter } from '../../../src/main/convert'
import { loadFilesToolsets } from '../../../src/main/files'
import { createToolSession, runTerminalArgv, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import { CANARY, sandboxes } from './sandbox'
import { prepareSwapLoop, type SwapLoop, startSwapLoop } from './swapLoop'

// issue 26 item 1: a local process swaps ws/flip (a real folder) with ws/flipalt (a link to an outside
// folder) in a tight loop while the agent works in /flip. No call may read, create or change anything outside.
const CALLS = 300
// Each of these writes commits to the history (slower): fewer calls, still many swaps each.
const HISTORY_CALLS = 100
// Bounds the run on a busy machine (a loop bound, not an assertion).
const BUDGET_MS = 20_000

const boxes = sandboxes('bureau-race-')
let session: ToolSession
let workspace: Workspace
let outside = ''
let root = ''
let swap: SwapLoop | undefined
let skipReason = ''
const converter = createAppConverter()

beforeAll(async () => {
  const box = await boxes.make({ history: false })
  ;({ workspace, outside, root } = box)
  await mkdir(path.join(root, 'flip'))
  for (const name of ['f.txt', 'a.txt', 'h.txt']) {
    await writeFile(path.join(root, 'flip', name), 'inside\n')
    await writeFile(path.join(outside, name), `${CANARY}\n`)
  }
  await writeFile(path.join(root, 'src.txt'), 'source\n')
  await symlink(outside, path.join(root, 'flipalt'))
  const loop = await prepareSwapLoop(box.base)
  if ('reason' in loop) {
    skipReason = loop.reason
    return
  }
  const toolsets = await loadBuiltinToolsets({ convert: { converter: () => converter } })
  session = createToolSession({ toolsets, workspace })
  swap = await startSwapLoop(loop.command, loop.args, path.join(root, 'flip'), path.join(root, 'flipalt'))
}, 60_000)

afterAll(async () => {
  await swap?.stop()
  await session?.dispose()
  await converter.dispose()
  await workspace.close()
  await boxes.cleanup()
})

/** name -> size:mtime of everything in the outside folder (cheap enough to take after every call). */
async function outsideState(): Promise<Map<string, string>> {
  const state = new Map<string, string>()
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      const info = await stat(full).catch(() => undefined)
      state.set(
        path.relative(outside, full),
        `${entry.isDirectory() ? 'd' : 'f'}:${info?.size}:${info?.mtimeMs}`,
      )
      if (entry.isDirectory()) await walk(full)
    }
  }
  await walk(outside)
  return state
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...after].filter(([name, sig]) => before.get(name) !== sig).map(([name]) => name)
  const removed = [...before.keys()].filter((name) => !after.has(name))
  return [...changed, ...removed]
}

interface Tally {
  calls: number
  succeeded: number
  escapes: number
  examples: string[]
}

/** Runs `argv(i)` up to CALLS times; an escape is outside content in the result or any outside change. */
async function hammer(
  argv: (index: number) => string[],
  leaked: (value: unknown, index: number) => Promise<boolean> = async () => false,
  options: { session?: ToolSession; calls?: number } = {},
): Promise<Tally> {
  const tally: Tally = { calls: 0, succeeded: 0, escapes: 0, examples: [] }
  const started = Date.now()
  const calls = options.calls ?? CALLS
  let before = await outsideState()
  for (let index = 0; index < calls && Date.now() - started < BUDGET_MS; index++) {
    const result = await runTerminalArgv(options.session ?? session, argv(index))
    tally.calls++
    if (result.ok) tally.succeeded++
    const after = await outsideState()
    const touched = changes(before, after)
    before = after
    const text = result.ok ? JSON.stringify(result.value) : ''
    const read = result.ok && (/CANARY|canary\.txt/.test(text) || (await leaked(result.value, index)))
    const escapes = touched.length + (read ? 1 : 0)
    if (escapes > 0 && tally.examples.length < 3)
      tally.examples.push(read ? 'outside content' : touched.join(', '))
    tally.escapes += escapes
  }
  return tally
}

const results: Record<string, Tally> = {}

const operations: Array<
  [string, (index: number) => string[], ((value: unknown, index: number) => Promise<boolean>)?]
> = [
  ['files read', () => ['files', 'read', '/flip/f.txt']],
  ['convert to_markdown', () => ['convert', 'to_markdown', '/flip/f.txt']],
  ['files write_text (new)', (i) => ['files', 'write_text', `/flip/w${i}.txt`, 'new']],
  ['files write_text (overwrite)', (i) => ['files', 'write_text', '/flip/f.txt', `inside ${i}`]],
  ['files append_text', () => ['files', 'append_text', '/flip/a.txt', 'x']],
  [
    'files copy (from /flip)',
    (i) => ['files', 'copy', '/flip/f.txt', `/copies/c${i}.txt`],
    async (_value, i) =>
      (await readFile(path.join(root, 'copies', `c${i}.txt`), 'utf8').catch(() => '')).includes('CANARY'),
  ],
  ['files copy (into /flip)', (i) => ['files', 'copy', '/src.txt', `/flip/c${i}.txt`]],
  ['files mkdir', (i) => ['files', 'mkdir', `/flip/d${i}/e`]],
  ['files move (into /flip)', (i) => ['files', 'move', `/m${i}.txt`, `/flip/m${i}.txt`]],
  ['files list', () => ['files', 'list', '/flip']],
  ['files delete', (i) => ['files', 'delete', `/flip/w${i}.txt`]],
]

describe('symlink swap race (renameat2 RENAME_EXCHANGE loop)', () => {
  it.each(operations)(
    '%s: no escape',
    async (_name, argv, leaked) => {
      if (skipReason) {
        console.log(`symlink race test skipped: ${skipReason}`)
        return
      }
      if (_name.startsWith('files move'))
        for (let i = 0; i < CALLS; i++) await writeFile(path.join(root, `m${i}.txt`), 'move me\n')
      const tally = await hammer(argv, leaked)
      results[_name] = tally
      console.log(
        `${_name}: ${tally.escapes} escapes in ${tally.calls} calls, ${tally.succeeded} succeeded (${((tally.escapes * 1000) / tally.calls).toFixed(1)} per 1,000)${tally.examples.length ? `, e.g. ${tally.examples.join(' | ')}` : ''}`,
      )
      expect(tally.calls).toBeGreaterThan(0)
      expect(tally.escapes).toBe(0)
    },
    60_000,
  )

  it('files write_text with history on: no recorded version holds outside content', async () => {
    if (skipReason) return console.log(`symlink race test skipped: ${skipReason}`)
    // A second workspace on the same folder, with history: each write commits /flip/h.txt, which
    // isomorphic-git reads back from the disk while the loop swaps /flip.
    const recorded = createWorkspace({ root, history: true })
    const historySession = createToolSession({ toolsets: await loadFilesToolsets(), workspace: recorded })
    try {
      const tally = await hammer((i) => ['files', 'write_text', '/flip/h.txt', `inside ${i}`], undefined, {
        session: historySession,
        calls: HISTORY_CALLS,
      })
      const git = await import('isomorphic-git')
      const fs = await import('node:fs')
      const gitdir = path.join(root, '.bureau', 'history')
      // History works meanwhile: a file outside the swapped folder is recorded.
      const plain = await runTerminalArgv(historySession, ['files', 'write_text', '/plain-h.txt', 'plain'])
      expect(plain.ok).toBe(true)
      const plainVersions = await git.log({ fs, gitdir, filepath: 'plain-h.txt' })
      expect(plainVersions.length).toBeGreaterThan(0)
      const commits = await git.log({ fs, gitdir })
      let leakedVersions = 0
      for (const commit of commits) {
        const blob = await git
          .readBlob({ fs, gitdir, oid: commit.oid, filepath: 'flip/h.txt' })
          .catch(() => undefined)
        if (blob && Buffer.from(blob.blob).toString('utf8').includes('CANARY')) leakedVersions++
      }
      const escapes = tally.escapes + leakedVersions
      console.log(
        `files write_text with history: ${escapes} escapes (${leakedVersions} versions with outside content) in ${tally.calls} calls, ${commits.length} versions (${((escapes * 1000) / tally.calls).toFixed(1)} per 1,000)`,
      )
      expect(tally.calls).toBeGreaterThan(0)
      expect(escapes).toBe(0)
    } finally {
      await historySession.dispose()
      await recorded.close()
    }
  }, 60_000)

  it('left the outside folder with only its own files', async () => {
    if (skipReason) return
    expect((await readdir(outside)).sort()).toEqual(['a.txt', 'canary.txt', 'f.txt', 'h.txt'])
    for (const name of ['a.txt', 'f.txt', 'h.txt'])
      expect(await readFile(path.join(outside, name), 'utf8')).toBe(`${CANARY}\n`)
  })
})
