import type { StartForBureauResult } from '../../../shared/ipc/routes/browser'
import { startForBureau } from '../bureauProfile/startForBureau'
import type { BrowserEnvironment } from '../types'

export interface BrowserHandlerDeps {
  env: BrowserEnvironment
  /** Saves the new endpoint: mode cdp + cdpEndpoint (the settings service's update). */
  saveEndpoint(endpoint: string): Promise<unknown>
  /** Extra browser flags (tests run it headless). */
  extraArgs?: readonly string[]
}

/** IPC handlers of the browser service. */
export function browserHandlers(deps: BrowserHandlerDeps) {
  return {
    'browser.startForBureau': async (): Promise<StartForBureauResult> => {
      const started = await startForBureau(deps.env, deps.extraArgs)
      await deps.saveEndpoint(started.endpoint)
      return started
    },
  }
}
