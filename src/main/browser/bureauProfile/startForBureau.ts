import { basename } from 'node:path'
import { resolveBrowserConfig } from '../config/resolveBrowserConfig'
import { noBrowserFound } from '../connect/connectErrors'
import { findBrowser } from '../discovery/findBrowser'
import type { BrowserEnvironment } from '../types'
import { startDebuggableBrowser } from './startDebuggableBrowser'

export interface StartedForBureau {
  endpoint: string
  /** Which browser was started, e.g. "msedge" (a program name, never a host path). */
  browser: string
  reused: boolean
}

/**
 * "Start Edge for Bureau": Edge (else Chrome, else Chromium) with remote debugging on the Bureau
 * profile in the data folder. The user signs in there once; the browser keeps running on its own.
 */
export async function startForBureau(
  env: BrowserEnvironment,
  extraArgs: readonly string[] = [],
): Promise<StartedForBureau> {
  const config = await resolveBrowserConfig(env)
  const executablePath =
    config.executablePath ?? findBrowser({ families: ['edge', 'chrome', 'chromium'] })?.path ?? null
  if (!executablePath) throw noBrowserFound('Edge or Chrome')
  const started = await startDebuggableBrowser({
    executablePath,
    userDataDir: config.bureauProfileDir,
    extraArgs,
    detached: true,
  })
  return {
    endpoint: started.endpoint,
    browser: basename(executablePath).replace(/\.exe$/i, ''),
    reused: started.reused,
  }
}
