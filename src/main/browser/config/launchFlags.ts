/** Flags for a Chromium that Bureau starts itself: quiet, no background traffic, no first-run UI. */
export const QUIET_FLAGS = [
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const

/** Extra flags when it runs without a window (tests, the headless host): the Debian Chromium set. */
export const HEADLESS_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu'] as const

/**
 * `BUREAU_BROWSER_HEADLESS=1` makes "Start Edge for Bureau" start the browser without a window:
 * for the e2e tests and machines without a display (the UI route has no other way to ask for it).
 */
export function startFlagsFromEnv(env: NodeJS.ProcessEnv): readonly string[] {
  return env.BUREAU_BROWSER_HEADLESS === '1' ? HEADLESS_FLAGS : []
}
