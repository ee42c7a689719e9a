import { useQuery } from '@tanstack/react-query'
import type { EvalScore } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'

function describeScore(score: EvalScore): string {
  const percent = score.total > 0 ? Math.round((100 * score.passed) / score.total) : 0
  const date = new Date(score.date).toLocaleDateString(undefined, { dateStyle: 'medium' })
  return `${score.passed}/${score.total} tasks (${percent}%) · ${date} · task set ${score.taskSetVersion} (${score.taskSetDigest})`
}

/** The last `bureau eval` score of each model of this provider (from `<data-dir>/eval/last-results.json`). */
export function EvalScores({ providerId }: { providerId: string }) {
  const bureau = useBureau()
  const scores = useQuery({
    queryKey: ['eval.lastResults'],
    queryFn: () => bureau.invoke('eval.lastResults'),
    retry: false,
  })
  const mine = (scores.data ?? []).filter((s) => s.provider === providerId)
  return (
    <section className="eval-scores" aria-label="Eval scores">
      <h4 className="field-label">Eval score</h4>
      {scores.isError && <p className="field-hint">Eval scores are not available: {scores.error.message}</p>}
      {scores.isSuccess && mine.length === 0 && (
        <p className="field-hint">
          No eval run yet. Run <code>bureau eval --provider {providerId}</code> to see how this model does on
          Bureau's office tasks.
        </p>
      )}
      {mine.length > 0 && (
        <ul className="eval-score-list">
          {mine.map((s) => (
            <li key={s.model}>
              <strong>{s.model}</strong> ({s.interactionMode} mode): {describeScore(s)}
              {s.partial && ' · some tasks only'}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
