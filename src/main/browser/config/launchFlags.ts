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
