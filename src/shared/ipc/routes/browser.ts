import { z } from 'zod'
import { route } from '../defineContract'

export const StartForBureauResult = z.object({
  /** The DevTools endpoint now saved as browser.cdpEndpoint (mode switched to cdp). */
  endpoint: z.string(),
  /** The program started, e.g. "msedge" or "chrome" (never a host path). */
  browser: z.string(),
  /** True when the Bureau browser was already running and was reused. */
  reused: z.boolean(),
})
export type StartForBureauResult = z.infer<typeof StartForBureauResult>

export const browserRoutes = {
  'browser.startForBureau': route({
    summary:
      'Starts Edge (or Chrome) with remote debugging on a Bureau-owned profile and switches the browser mode to cdp with that endpoint.',
    input: z.void(),
    output: StartForBureauResult,
  }),
}
