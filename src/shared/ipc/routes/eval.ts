import { z } from 'zod'
import { route } from '../defineContract'

/** The last `bureau eval` of one provider/model, as written to `<data-dir>/eval/last-results.json`. */
export const EvalScore = z.object({
  provider: z.string(),
  model: z.string(),
  interactionMode: z.string(),
  passed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** When the run finished (ISO 8601). */
  date: z.string(),
  /** `eval/suite.json`'s version and a digest of the task manifests. */
  taskSetVersion: z.string(),
  taskSetDigest: z.string(),
  /** Some tasks only (`--tasks`), or a run stopped with Ctrl+C: not comparable with a full run. */
  partial: z.boolean(),
  /** The suite run: absent for Bureau's own tasks, `officebench` for `bureau eval --suite officebench`. */
  suite: z.enum(['officebench']).optional(),
})
export type EvalScore = z.infer<typeof EvalScore>

export const evalRoutes = {
  'eval.lastResults': route({
    summary:
      'The last `bureau eval` score of each provider/model and suite that was evaluated (none: empty list).',
    input: z.void(),
    output: z.array(EvalScore),
  }),
}
