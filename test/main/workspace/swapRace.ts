import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createAppConverter } from '../../../src/main/convert'
import { loadFilesToolsets } from '../../../src/main/files'
import { createToolSession, runTerminalArgv, type ToolSession } from '../../../src/main/tools'
import { loadBuiltinToolsets } from '../../../src/main/toolsHost'
import { createWorkspace } from '../../../src/main/workspace'
import { tempDirs } from '../../support/tempDir'
import { prepareSwapLoop, startSwapLoop } from './swapLoop'

// A local process swaps ws/flip (a real folder) with ws/flipalt (a link to an outside
// folder) in a tight loop while the agent works in /flip. No call may read, create or change anything
// outside. Shared by the test (few calls) and `npm run bench workspaceRace` (1,000 calls per operation);
// it imports no Vitest so the bench can run it.

export const RACE_CANARY = 'CANARY: must never be read, changed or joined by new files'

export interface Tally {
  calls: number
  succeeded: number
  escapes: number
  examples: string[]
}

type Leak = (value: unknown, index: number) => Promise<boolean>

export interface RaceOperation {
  name: string
  argv: (index: number) => string[]
  leaked?: Leak
  /** Files the operation consumes, made before it runs. */
  prepare?: (calls: number) => Promise<void>
}

export interface Race {
  root: string
  outside: string
  operations: RaceOperation[]
  /** Runs up to `calls` calls (or until `budgetMs`); an escape is outside content in a result or any outside change. */
  hammer(operation: RaceOperation, calls: number, budgetMs: number, session?: ToolSession): Promise<Tally>
  /** write_text with history on: the calls' escapes plus recorded versions of /flip/h.txt with outside content. */
  hammerHistory(
    calls: number,
    budgetMs: number,
  ): Promise<Tally & { versions: number; leakedVersions: number }>
  outsideNames(): Promise<string[]>
  stop(): Promise<void>
}

/** name -> size:mtime of everything in the outside folder (cheap enough to take after every call). */
async function stateOf(outside: string): Promise<Map<string, string>> {
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

function operationsIn(root: string): RaceOperation[] {
  return [
    { name: 'files read', argv: () => ['files', 'read', '/flip/f.txt'] },
    { name: 'convert to_markdown', argv: () => ['convert', 'to_markdown', '/flip/f.txt'] },
    { name: 'files write_text (new)', argv: (i) => ['files', 'write_text', `/flip/w${i}.txt`, 'new'] },
    {
      name: 'files write_text (overwrite)',
      argv: (i) => ['files', 'write_text', '/flip/f.txt', `inside ${i}`],
    },
    { name: 'files append_text', argv: () => ['files', 'append_text', '/flip/a.txt', 'x'] },
    {
      name: 'files copy (from /flip)',
      argv: (i) => ['files', 'copy', '/flip/f.txt', `/copies/c${i}.txt`],
      leaked: async (_value, i) =>
        (await readFile(path.join(root, 'copies', `c${i}.txt`), 'utf8').catch(() => '')).includes('CANARY'),
    },
    { name: 'files copy (into /flip)', argv: (i) => ['files', 'copy', '/src.txt', `/flip/c${i}.txt`] },
    { name: 'files mkdir', argv: (i) => ['files', 'mkdir', `/flip/d${i}/e`] },
    {
      name: 'files move (into /flip)',
      argv: (i) => ['files', 'move', `/m${i}.txt`, `/flip/m${i}.txt`],
      prepare: async (calls) => {
        for (let i = 0; i < calls; i++) await writeFile(path.join(root, `m${i}.txt`), 'move me\n')
      },
    },
    { name: 'files list', argv: () => ['files', 'list', '/flip'] },
    { name: 'files delete', argv: (i) => ['files', 'delete', `/flip/w${i}.txt`] },
  ]
}

/** Sets up ws/ and outside/ and starts the swap loop; `{reason}` when the loop cannot run here. */
export async function startRace(): Promise<Race | { reason: string }> {
  const dirs = tempDirs('bureau-race-')
  const base = await dirs.make()
  const outside = path.join(base, 'outside')
  const root = path.join(base, 'ws')
  await mkdir(path.join(root, 'flip'), { recursive: true })
  await mkdir(outside)
  await writeFile(path.join(outside, 'canary.txt'), RACE_CANARY)
  for (const name of ['f.txt', 'a.txt', 'h.txt']) {
    await writeFile(path.join(root, 'flip', name), 'inside\n')
    await writeFile(path.join(outside, name), `${RACE_CANARY}\n`)
  }
  await writeFile(path.join(root, 'src.txt'), 'source\n')
  await symlink(outside, path.join(root, 'flipalt'))
  const loop = await prepareSwapLoop(base)
  if ('reason' in loop) {
    await dirs.cleanup()
    return loop
  }
  const workspace = createWorkspace({ root, history: false })
  const converter = createAppConverter()
  const toolsets = await loadBuiltinToolsets({ convert: { converter: () => converter } })
  const session = createToolSession({ toolsets, workspace })
  const swap = await startSwapLoop(
    loop.command,
    loop.args,
    path.join(root, 'flip'),
    path.join(root, 'flipalt'),
  )

  const hammer: Race['hammer'] = async (operation, calls, budgetMs, on = session) => {
    await operation.prepare?.(calls)
    const tally: Tally = { calls: 0, succeeded: 0, escapes: 0, examples: [] }
    const started = Date.now()
    let before = await stateOf(outside)
    for (let index = 0; index < calls && Date.now() - started < budgetMs; index++) {
      const result = await runTerminalArgv(on, operation.argv(index))
      tally.calls++
      if (result.ok) tally.succeeded++
      const after = await stateOf(outside)
      const touched = changes(before, after)
      before = after
      const text = result.ok ? JSON.stringify(result.value) : ''
      const read =
        result.ok && (/CANARY|canary\.txt/.test(text) || (await operation.leaked?.(result.value, index)))
      const escapes = touched.length + (read ? 1 : 0)
      if (escapes > 0 && tally.examples.length < 3)
        tally.examples.push(read ? 'outside content' : touched.join(', '))
      tally.escapes += escapes
    }
    return tally
  }

  const hammerHistory: Race['hammerHistory'] = async (calls, budgetMs) => {
    // A second workspace on the same folder, with history: each write commits /flip/h.txt, which
    // isomorphic-git reads back from the disk while the loop swaps /flip.
    const recorded = createWorkspace({ root, history: true })
    const historySession = createToolSession({ toolsets: await loadFilesToolsets(), workspace: recorded })
    try {
      const operation = {
        name: 'history',
        argv: (i: number) => ['files', 'write_text', '/flip/h.txt', `inside ${i}`],
      }
      const tally = await hammer(operation, calls, budgetMs, historySession)
      // History works meanwhile: a file outside the swapped folder is recorded.
      const plain = await runTerminalArgv(historySession, ['files', 'write_text', '/plain-h.txt', 'plain'])
      if (!plain.ok) throw new Error('history: writing /plain-h.txt failed')
      const git = await import('isomorphic-git')
      const fs = await import('node:fs')
      const gitdir = path.join(root, '.bureau', 'history')
      if ((await git.log({ fs, gitdir, filepath: 'plain-h.txt' })).length === 0)
        throw new Error('history: /plain-h.txt was not recorded')
      const commits = await git.log({ fs, gitdir })
      let leakedVersions = 0
      for (const commit of commits) {
        const blob = await git
          .readBlob({ fs, gitdir, oid: commit.oid, filepath: 'flip/h.txt' })
          .catch(() => undefined)
        if (blob && Buffer.from(blob.blob).toString('utf8').includes('CANARY')) leakedVersions++
      }
      return { ...tally, escapes: tally.escapes + leakedVersions, versions: commits.length, leakedVersions }
    } finally {
      await historySession.dispose()
      await recorded.close()
    }
  }

  return {
    root,
    outside,
    operations: operationsIn(root),
    hammer,
    hammerHistory,
    outsideNames: async () => (await readdir(outside)).sort(),
    stop: async () => {
      await swap.stop()
      await session.dispose()
      await converter.dispose()
      await workspace.close()
      await dirs.cleanup()
    },
  }
}

export const perThousand = (tally: Tally) => (tally.calls ? (tally.escapes * 1000) / tally.calls : 0)
