import { join } from 'node:path'
import type { BrowserConfig, BrowserEnvironment } from '../types'

/** Folder name of the Bureau-owned browser profile inside the data folder. */
export const BUREAU_PROFILE_DIR = 'browser-profile'

/**
 * Settings with the command-line flags on top. A `--browser-cdp` flag means cdp mode and an
 * `--browser-executable` flag alone means bundled-chromium, whatever the setting says.
 */
export async function resolveBrowserConfig(env: BrowserEnvironment): Promise<BrowserConfig> {
  const settings = await env.settings()
  const flags = env.overrides ?? {}
  let mode = settings.mode
  if (flags.cdpEndpoint) mode = 'cdp'
  else if (flags.executablePath) mode = 'bundled-chromium'
  return {
    mode,
    executablePath: flags.executablePath ?? settings.executablePath,
    profileDir: settings.profileDir,
    cdpEndpoint: flags.cdpEndpoint ?? settings.cdpEndpoint,
    allowLocalNetwork: flags.allowLocalNetwork === true || settings.allowLocalNetwork,
    searchUrl: settings.searchUrl,
    bureauProfileDir: join(env.dataDir, BUREAU_PROFILE_DIR),
    // Bureau's own Chromium has no window; the user's Edge/Chrome is meant to be seen.
    headless: mode === 'bundled-chromium',
  }
}
