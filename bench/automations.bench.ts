import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createAutomationRunner, createAutomationService, openAutomationStore } from '../src/main/automations'
import { createWorkspace } from '../src/main/workspace'
import type { Bench, BenchRow } from './types'

// `npm run bench automations`: what 50 enabled automations cost while nothing is due (CPU and memory of
// the runner between runs), and how long from a file's last write to its run's start.

const idleExecutor = {
  async runUnattended() {
    return {
      conversationId: 'c',
      status: 'ok' as const,
      message: 'ok',
      decisions: [],
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      files: [],
      steps: 0,
    }
  },
}

/** A full collection without `--expose-gc` on the command line (the bench runner does not pass it). */
function collector(): () => void {
  if (global.gc) return global.gc
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

/** CPU (user + system) in ms per second over a quiet window. */
async function cpuPerSecond(ms: number): Promise<number> {
  const start = process.cpuUsage()
  await new Promise((r) => setTimeout(r, ms))
  const cpu = process.cpuUsage(start)
  return (cpu.user + cpu.system) / 1000 / (ms / 1000)
}

const bench: Bench = async () => {
  const rows: BenchRow[] = []
  const base = await mkdtemp(join(tmpdir(), 'bureau-bench-automations-'))
  try {
    const root = join(base, 'workspace')
    await mkdir(join(root, 'inbox'), { recursive: true })
    const workspace = createWorkspace({ root })
    const store = openAutomationStore({ dataDir: base })
    const service = createAutomationService({
      store,
      context: { timeZone: () => 'UTC', workspace: () => workspace },
    })
    for (let i = 0; i < 48; i++)
      await service.create({
        name: `Schedule ${i}`,
        prompt: 'Go.',
        trigger: { kind: 'schedule', cron: `${i % 60} ${i % 24} * * *` },
      })
    await service.create({
      name: 'Files a',
      prompt: 'Go.',
      trigger: { kind: 'file', folder: '/inbox', glob: '*.pdf' },
    })
    let started: number | undefined
    const timed = {
      async runUnattended(input: { prompt: string }) {
        if (input.prompt.includes('note.txt')) started ??= performance.now()
        return idleExecutor.runUnattended()
      },
    }
    await service.create({
      name: 'Files b',
      prompt: 'Go.',
      trigger: { kind: 'file', folder: '/inbox', glob: '*.txt' },
    })
    const gc = collector()
    // The same process doing nothing: what Node and the bench's loader cost on their own.
    const idleMs = 5_000
    const floor = await cpuPerSecond(idleMs)
    gc()
    const heapBefore = process.memoryUsage().heapUsed
    const runner = createAutomationRunner({
      store,
      executor: () => timed,
      workspace: () => workspace,
      settleMs: 300,
    })
    await runner.start()
    await runner.settled()
    gc()
    const heapAfter = process.memoryUsage().heapUsed
    const withRunner = await cpuPerSecond(idleMs)
    const added = Math.max(0, withRunner - floor)
    rows.push({
      name: 'idle CPU added by the runner, 50 enabled (48 schedules, 2 file triggers)',
      value: added,
      unit: 'ms CPU/s',
      target: '< 1 ms/s',
      pass: added < 1,
      note: `process with the runner ${withRunner.toFixed(2)} ms/s, the same process before it ${floor.toFixed(2)} ms/s`,
    })
    const mb = (heapAfter - heapBefore) / 1024 / 1024
    rows.push({
      name: 'heap of the runner with 50 enabled',
      value: mb,
      unit: 'MB',
      target: '< 5 MB',
      pass: mb < 5,
      note: 'after a full collection, chokidar and the store included',
    })
    const written = performance.now()
    await writeFile(join(root, 'inbox', 'note.txt'), 'hello')
    while (started === undefined) await new Promise((r) => setTimeout(r, 10))
    await runner.idle()
    rows.push({
      name: "file trigger: last write to the run's start",
      value: started - written,
      unit: 'ms',
      note: 'settle time 300 ms (the app uses 1,000 ms) + the watcher debounce',
    })
    await runner.stop()
    await workspace.close()
  } finally {
    await rm(base, { recursive: true, force: true })
  }
  return rows
}

export default bench
