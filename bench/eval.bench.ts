import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEvalEnvironment } from '../src/main/cli/eval/evalEnvironment'
import { loadTaskSet, runEval, shippedEvalDir } from '../src/main/eval'
import type { TaskRun } from '../src/main/eval/results'
import { createLogger } from '../src/main/platform'
import type { BenchRow } from './types'

// `npm run bench eval`: the whole task suite replayed with `--reference` (no model), in process, and the
// harness's own cost per task: preparing the fresh workspace (copy, history, setup calls) and the checker.

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export default async function evalBench(): Promise<BenchRow[]> {
  const evalDir = shippedEvalDir() as string
  const taskSet = loadTaskSet(evalDir)
  const dataDir = await mkdtemp(join(tmpdir(), 'bureau-bench-eval-'))
  const env = await openEvalEnvironment({
    dataDir,
    scratchDir: join(dataDir, 'scratch'),
    logger: createLogger({ level: 'error' }),
    notify: () => {},
    env: {},
  })
  let runs: TaskRun[]
  const started = performance.now()
  try {
    runs = (await runEval({ taskSet, evalDir, env, mode: 'reference' })).runs
  } finally {
    await env.close()
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
  const wall = performance.now() - started
  const web = runs.filter((r) => r.toolsets.includes('web'))
  const other = runs.filter((r) => !r.toolsets.includes('web'))
  const failed = runs.filter((r) => !r.passed).map((r) => r.id)
  const overhead = runs.map((r) => r.setupMs + r.checkMs)
  return [
    {
      name: `suite wall time, --reference, ${runs.length} tasks`,
      value: wall / 1000,
      unit: 's',
      target: '100% pass',
      pass: failed.length === 0,
      note: failed.length
        ? `failed: ${failed.join(', ')}`
        : `${web.length} web tasks start a headless Chromium each`,
    },
    {
      name: 'of which the web tasks',
      value: web.reduce((s, r) => s + r.wallMs, 0) / 1000,
      unit: 's',
      note: `median ${(median(web.map((r) => r.wallMs)) / 1000).toFixed(1)} s per task`,
    },
    {
      name: 'median task wall time, other tasks',
      value: median(other.map((r) => r.wallMs)),
      unit: 'ms',
    },
    {
      name: 'harness overhead per task (setup + checker), median',
      value: median(overhead),
      unit: 'ms',
      note: `max ${Math.max(...overhead).toFixed(0)} ms`,
    },
    {
      name: 'workspace setup per task, median',
      value: median(runs.map((r) => r.setupMs)),
      unit: 'ms',
      note: `max ${Math.max(...runs.map((r) => r.setupMs)).toFixed(0)} ms (copy, history, setup calls)`,
    },
    {
      name: 'checker per task, median',
      value: median(runs.map((r) => r.checkMs)),
      unit: 'ms',
      note: `max ${Math.max(...runs.map((r) => r.checkMs)).toFixed(0)} ms (exceljs reads the workbook)`,
    },
  ]
}
