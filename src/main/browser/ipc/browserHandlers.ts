import type { StartForBureauResult } from '../../../shared/ipc/routes/browser'
import { startForBureau } from '../bureauProfile/startForBureau'
import { startFlagsFromEnv } from '../config/launchFlags'
import type { BrowserEnvironment } from '../types'

export interface BrowserHandlerDeps {
  env: BrowserEnvironment
  /** Saves the new endpoint: mode cdp + cdpEndpoint (the settings service's update). */
  saveEndpoint(endpoint: string): Promise<unknown>
  /** Extra browser flags (tests run it headless); default: HEADLESS_FLAGS when BUREAU_BROWSER_HEADLESS=1. */
  extraArgs?: readonly string[]
}

/** IPC handlers of the browser service. */
export function browserHandlers(deps: BrowserHandlerDeps) {
  const extraArgs = deps.extraArgs ?? startFlagsFromEnv(deps.env.env ?? process.env)
  return {
    'browser.startForBureau': async (): Promise<StartForBureauResult> => {
      const started = await startForBureau(deps.env, extraArgs)
      await deps.saveEndpoint(started.endpoint)
      return started
    },
  }
}
