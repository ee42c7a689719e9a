import { table } from '../report'
import type { EvalReport, Tally } from '../results'

/**
 * The published rows (Wang et al., 2024, "OfficeBench", the main results table): pass rates in percent by
 * the number of applications, and overall. Only the tiers the paper's text states are given per tier.
 */
export const PUBLISHED: readonly { who: string; one?: number; two?: number; three?: number; all: number }[] =
  [
    { who: 'GPT-4o (paper)', one: 64.5, two: 60.0, three: 21.4, all: 47.0 },
    { who: 'GPT-4 Turbo (paper)', all: 38.0 },
    { who: 'Llama 3 70B (paper)', all: 27.3 },
    { who: 'Humans (paper)', all: 93.3 },
  ]

const TIERS = [1, 2, 3] as const

function tally(report: EvalReport, apps: number | undefined, includeApart: boolean): Tally {
  const runs = report.runs.filter(
    (r) => r.apps !== undefined && (apps === undefined || r.apps === apps) && (includeApart || !r.cannotPass),
  )
  return { passed: runs.filter((r) => r.passed).length, total: runs.length }
}

const rate = (t: Tally) =>
  t.total === 0 ? '-' : `${((100 * t.passed) / t.total).toFixed(1)}% (${t.passed}/${t.total})`
const published = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)}%`)

/**
 * The paper's layout: one, two, three apps and all, this run beside the published rows. The first row
 * counts every subtask that ran (the paper's denominators); the second only those whose checks can pass.
 */
export function formatPaperTable(report: EvalReport): string {
  const mine = (includeApart: boolean) => [
    ...TIERS.map((apps) => rate(tally(report, apps, includeApart))),
    rate(tally(report, undefined, includeApart)),
  ]
  const who = report.mode === 'agent' ? `${report.provider}/${report.model}` : `${report.mode} solutions`
  const apart = report.runs.filter((r) => r.cannotPass)
  const rows = [
    [`${who}, every subtask run`, ...mine(true)],
    [`${who}, checks that can pass`, ...mine(false)],
    ...PUBLISHED.map((p) => [
      p.who,
      published(p.one),
      published(p.two),
      published(p.three),
      published(p.all),
    ]),
  ]
  return [
    'OfficeBench (Wang et al., 2024): pass rate by the number of applications',
    '',
    table(['', 'one app', 'two apps', 'three apps', 'all'], rows),
    '',
    ...(apart.length > 0
      ? [
          `scored apart, their own checks cannot pass (${apart.length}):`,
          ...apart.map((r) => `  ${r.id}: ${r.cannotPass}`),
          '',
        ]
      : []),
  ].join('\n')
}
