import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { composeSystemPrompt } from '../src/main/agent/prompt/composeSystemPrompt'
import { openEvalEnvironment } from '../src/main/cli/eval/evalEnvironment'
import {
  defaultOfficeBenchDir,
  type EvalEnvironment,
  isOfficeBenchDir,
  loadOfficeBench,
  loadTaskSet,
  runEval,
  shippedEvalDir,
  type TaskSet,
} from '../src/main/eval'
import type { TaskRun } from '../src/main/eval/results'
import { createLogger } from '../src/main/platform'
import { buildApiTools } from '../src/main/tools'
import type { BenchRow } from './types'

// `npm run bench eval`: the whole task suite replayed with `--reference` (no model), in process, and the
// harness's own cost per task: preparing the fresh workspace (copy, history, setup calls) and the checker.
// Then OfficeBench (when its data is there) replayed the same way: time per subtask, and the prompt
// tokens a model reads per subtask on the reference path, against the own suite's.

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

interface Replayed {
  runs: TaskRun[]
  wallMs: number
  /** Per task: the tokens of the last request of the reference path, in API mode. */
  tokens: number[]
}

/**
 * Replays a task set with `--reference` and counts, per task, what the last request of its path holds:
 * the system prompt (every toolset listed), the task's prompt, the function tools of each toolset the
 * path calls, and every call's arguments and result (o200k_base).
 */
async function replayCounting(taskSet: TaskSet, evalDir: string, env: EvalEnvironment): Promise<Replayed> {
  const toolsets = env.toolsets()
  const system = countTokens(
    composeSystemPrompt({ toolsets, subagents: [], mode: 'api', protocol: 'native', role: 'agent' }),
  )
  const steps = new Map<string, { tool: string; args: unknown; value: unknown }[]>()
  const started = performance.now()
  const { runs } = await runEval({
    taskSet,
    evalDir,
    env,
    mode: 'reference',
    onReplayStep: (id, step) => steps.set(id, [...(steps.get(id) ?? []), step]),
  })
  const wallMs = performance.now() - started
  const tokens = taskSet.tasks.map((task) => {
    const path = steps.get(task.id) ?? []
    const opened = new Set(path.map((s) => s.tool.split(/[._]/)[0]))
    const tools = toolsets.filter((t) => opened.has(t.name))
    return (
      system +
      countTokens(task.prompt) +
      countTokens(JSON.stringify(buildApiTools(tools))) +
      path.reduce(
        (sum, s) => sum + countTokens(JSON.stringify(s.args)) + countTokens(JSON.stringify(s.value ?? null)),
        0,
      )
    )
  })
  return { runs, wallMs, tokens }
}

async function officeBenchRows(env: EvalEnvironment, own: number[]): Promise<BenchRow[]> {
  const shipped = shippedEvalDir() as string
  const dir = defaultOfficeBenchDir(dirname(shipped), process.env)
  if (!isOfficeBenchDir(dir))
    return [
      {
        name: 'OfficeBench replay',
        value: Number.NaN,
        unit: 's',
        note: `skipped: no OfficeBench data in ${dir}`,
      },
    ]
  const set = loadOfficeBench(dir, { mode: 'reference', solutionsDir: join(shipped, 'officebench') })
  const { runs, wallMs, tokens } = await replayCounting(set, dir, env)
  const failed = runs.filter((r) => !r.passed).map((r) => r.id)
  const times = runs.map((r) => r.wallMs)
  const worst = runs.reduce((a, b) => (b.wallMs > a.wallMs ? b : a))
  const worstTokens = Math.max(...tokens)
  return [
    {
      name: `OfficeBench, --reference, ${runs.length} subtasks`,
      value: wallMs / 1000,
      unit: 's',
      target: '100% pass',
      pass: failed.length === 0,
      note: failed.length
        ? `failed: ${failed.join(', ')}`
        : `${set.omitted.length} left out (their checks cannot pass)`,
    },
    { name: 'OfficeBench replay time per subtask, median', value: median(times), unit: 'ms' },
    {
      name: 'OfficeBench replay time per subtask, worst',
      value: worst.wallMs,
      unit: 'ms',
      note: worst.id,
    },
    {
      name: 'prompt tokens per subtask (reference path, last request, API), OfficeBench median',
      value: median(tokens),
      unit: 'tokens',
      note: `worst ${worstTokens} (${set.tasks[tokens.indexOf(worstTokens)]?.id})`,
    },
    {
      name: 'prompt tokens per task (reference path, last request, API), own suite median',
      value: median(own),
      unit: 'tokens',
      note: `worst ${Math.max(...own)}`,
    },
  ]
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
  let wall: number
  let officeBench: BenchRow[]
  try {
    const own = await replayCounting(taskSet, evalDir, env)
    runs = own.runs
    wall = own.wallMs
    officeBench = await officeBenchRows(env, own.tokens)
  } finally {
    await env.close()
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }
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
    ...officeBench,
  ]
}
