import type { EvalScore } from '../../../shared/ipc'
import { useEvalResults } from './toolsApi'

function describeScore(score: EvalScore): string {
  const percent = score.total > 0 ? Math.round((100 * score.passed) / score.total) : 0
  const date = new Date(score.date).toLocaleDateString(undefined, { dateStyle: 'medium' })
  const what = score.suite === 'officebench' ? 'subtasks' : 'tasks'
  return `${score.passed}/${score.total} ${what} (${percent}%) · ${date} · task set ${score.taskSetVersion} (${score.taskSetDigest})${score.partial ? ' · some tasks only' : ''}`
}

/** The models of the provider, each with its own suite's score and its OfficeBench score, when run. */
function byModel(
  scores: readonly EvalScore[],
): { model: string; own?: EvalScore; officebench?: EvalScore }[] {
  const models = new Map<string, { model: string; own?: EvalScore; officebench?: EvalScore }>()
  for (const s of scores) {
    const entry = models.get(s.model) ?? { model: s.model }
    if (s.suite === 'officebench') entry.officebench ??= s
    else entry.own ??= s
    models.set(s.model, entry)
  }
  return [...models.values()]
}

/** The last `bureau eval` score of each model of this provider (from `<data-dir>/eval/last-results.json`). */
export function EvalScores({ providerId }: { providerId: string }) {
  const scores = useEvalResults()
  const mine = (scores.data ?? []).filter((s) => s.provider === providerId)
  return (
    <section className="eval-scores" aria-label="Eval scores">
      <h4 className="field-label">Eval score</h4>
      {scores.isError && <p className="field-hint">Eval scores are not available: {scores.error.message}</p>}
      {scores.isSuccess && mine.length === 0 && (
        <p className="field-hint">
          No eval run yet. Run <code>bureau eval --provider {providerId}</code> to see how this model does on
          Bureau's office tasks, and <code>bureau eval --suite officebench --provider {providerId}</code> for
          the published OfficeBench.
        </p>
      )}
      {mine.length > 0 && (
        <ul className="eval-score-list">
          {byModel(mine).map(({ model, own, officebench }) => (
            <li key={model}>
              <strong>{model}</strong> ({(own ?? officebench)?.interactionMode} mode)
              <span className="eval-score-suite">Bureau tasks: {own ? describeScore(own) : 'not run'}</span>
              <span className="eval-score-suite">
                OfficeBench: {officebench ? describeScore(officebench) : 'not run'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
