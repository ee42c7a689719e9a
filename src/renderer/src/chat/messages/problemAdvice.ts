export type ProblemAction = 'open-settings' | 'reenter-key'

export interface Advice {
  title: string
  action?: { kind: ProblemAction; label: string } | undefined
}

const KEY_REJECTED = /api key|401|unauthori[sz]ed|invalid[_ ]api[_ ]key|re-enter the key/i
const UNREACHABLE =
  /cannot reach|not reachable|is .* running|econnrefused|no provider|model .* not (installed|found)|does not know the model/i

/** What to tell the user about a failed request and which button helps (the error banners). */
export function adviceFor(problem: { code?: string | undefined; message: string }): Advice {
  if (problem.code === 'UNAUTHORIZED' || KEY_REJECTED.test(problem.message))
    return {
      title: 'The provider rejected the API key',
      action: { kind: 'reenter-key', label: 'Re-enter key' },
    }
  if (/not available in this build/i.test(problem.message)) return { title: 'Not available yet' }
  // Part of the answer arrived: the provider was reachable, so no "unreachable" title or Settings button.
  if (/connection .* was lost after/i.test(problem.message)) return { title: 'The answer was cut off' }
  if (problem.code === 'UNAVAILABLE' || problem.code === 'NOT_FOUND' || UNREACHABLE.test(problem.message))
    return { title: 'No model provider reachable', action: { kind: 'open-settings', label: 'Open Settings' } }
  if (problem.code === 'RATE_LIMITED') return { title: 'The provider is busy' }
  if (problem.code === 'TOO_LARGE') return { title: 'Too much for one request' }
  if (problem.code === 'TIMEOUT') return { title: 'The provider did not answer in time' }
  return { title: 'Something went wrong' }
}
