import type { EvalReport, EvalTotals, Tally, TaskRun } from './results'

function add(map: Record<string, Tally>, key: string, passed: boolean): void {
  const tally = map[key] ?? { passed: 0, total: 0 }
  map[key] = tally
  tally.total++
  if (passed) tally.passed++
}

/** The totals; a task whose checks cannot pass is scored apart (`apart`), outside `all`. */
export function totalsOf(runs: readonly TaskRun[]): EvalTotals {
  const totals: EvalTotals = {
    all: { passed: 0, total: 0 },
    byDifficulty: {},
    byToolset: {},
    apart: { passed: 0, total: 0 },
    tokens: { input: 0, output: 0, cached: 0 },
    wallMs: 0,
    toolErrors: 0,
  }
  for (const run of runs) {
    totals.tokens.input += run.tokens.input
    totals.tokens.output += run.tokens.output
    totals.tokens.cached += run.tokens.cached
    totals.wallMs += run.wallMs
    totals.toolErrors += run.toolErrors
    // A task whose own checks cannot pass is counted on its own, never in the score.
    if (run.cannotPass) {
      totals.apart.total++
      if (run.passed) totals.apart.passed++
      continue
    }
    totals.all.total++
    if (run.passed) totals.all.passed++
    add(totals.byDifficulty, run.difficulty, run.passed)
    for (const toolset of run.toolsets) add(totals.byToolset, toolset, run.passed)
  }
  return totals
}

export const pct = (t: Tally) => (t.total === 0 ? '-' : `${Math.round((100 * t.passed) / t.total)}%`)
const secs = (ms: number) => `${(ms / 1000).toFixed(1)}s`

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** The human-readable report: one row per attempt with the checker's reason, then the totals. */
export function formatReport(report: EvalReport): string {
  const who =
    report.mode === 'agent'
      ? `${report.provider}/${report.model} (${report.interactionMode} mode)`
      : `${report.mode} solutions`
  const rows = report.runs.map((r) => [
    r.passed ? 'PASS' : 'FAIL',
    report.repeat > 1 ? `${r.id}#${r.attempt}` : r.id,
    r.difficulty,
    `${r.steps}/${r.stepBudget}`,
    `${r.tokens.input}/${r.tokens.output}/${r.tokens.cached}`,
    secs(r.wallMs),
    String(r.toolErrors),
    r.reason,
  ])
  const t = report.totals
  const tallies = (map: Record<string, Tally>) =>
    Object.entries(map)
      .map(([k, v]) => `${k} ${v.passed}/${v.total}`)
      .join(', ')
  return [
    `bureau eval: ${who}, task set ${report.taskSet.version} (${report.taskSet.digest})`,
    '',
    table(['', 'task', 'level', 'steps', 'tokens in/out/cached', 'time', 'tool errors', 'reason'], rows),
    '',
    `score: ${t.all.passed}/${t.all.total} (${pct(t.all)})${report.interrupted ? ' - interrupted, only finished tasks are counted' : ''}`,
    ...(t.apart.total > 0
      ? [`scored apart (their own checks cannot pass): ${t.apart.passed}/${t.apart.total}`]
      : []),
    `by difficulty: ${tallies(t.byDifficulty) || '-'}`,
    `by toolset: ${tallies(t.byToolset) || '-'}`,
    `tokens: ${t.tokens.input} in, ${t.tokens.output} out, ${t.tokens.cached} cached; tool errors: ${t.toolErrors}; time: ${secs(t.wallMs)}`,
    '',
  ].join('\n')
}
