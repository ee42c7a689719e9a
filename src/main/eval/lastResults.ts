import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFile } from 'atomically'
import { z } from 'zod'
import { EvalScore } from '../../shared/ipc'
import type { EvalReport } from './results'

const LastResultsFile = z.object({
  version: z.literal(1),
  /** Keyed by "provider/model" (the own suite) or "officebench:provider/model". */
  scores: z.record(z.string(), EvalScore),
})

export function lastResultsPath(dataDir: string): string {
  return join(dataDir, 'eval', 'last-results.json')
}

/** The stored scores, newest first; a missing or damaged file gives none (it is only a cache of runs). */
export async function readLastResults(dataDir: string): Promise<EvalScore[]> {
  const file = lastResultsPath(dataDir)
  if (!existsSync(file)) return []
  try {
    const parsed = LastResultsFile.safeParse(JSON.parse(await readFile(file, 'utf8')))
    if (!parsed.success) return []
    return Object.values(parsed.data.scores).sort((a, b) => b.date.localeCompare(a.date))
  } catch {
    return []
  }
}

const keyOf = (s: EvalScore) => `${s.suite ? `${s.suite}:` : ''}${s.provider}/${s.model}`

/**
 * Records a model run as the last score of its provider/model on that suite (replays, and runs that
 * finished no task, are not scores).
 */
export async function saveLastResult(
  dataDir: string,
  report: EvalReport,
  partial: boolean,
  suite?: EvalScore['suite'],
): Promise<EvalScore | undefined> {
  if (report.mode !== 'agent' || !report.provider || !report.model || report.totals.all.total === 0)
    return undefined
  const score: EvalScore = {
    provider: report.provider,
    model: report.model,
    interactionMode: report.interactionMode ?? 'api',
    passed: report.totals.all.passed,
    total: report.totals.all.total,
    date: report.finishedAt,
    taskSetVersion: report.taskSet.version,
    taskSetDigest: report.taskSet.digest,
    partial: partial || report.interrupted,
    ...(suite ? { suite } : {}),
  }
  const scores: Record<string, EvalScore> = {}
  for (const s of await readLastResults(dataDir)) scores[keyOf(s)] = s
  scores[keyOf(score)] = score
  await mkdir(join(dataDir, 'eval'), { recursive: true })
  await writeFile(lastResultsPath(dataDir), `${JSON.stringify({ version: 1, scores }, null, 2)}\n`)
  return score
}

/** The `eval.*` IPC routes (Settings → Model provider). */
export function evalHandlers(options: { dataDir: string }) {
  return {
    'eval.lastResults': () => readLastResults(options.dataDir),
  }
}
