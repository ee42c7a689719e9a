import type { BrowserEnvironment } from './types'

/**
 * The Chromium other services draw and print with (the documents toolset, the PDF export): the
 * `--browser-executable` flag, else the browser settings' executable (null: the first one found).
 */
export function browserExecutable(env: Pick<BrowserEnvironment, 'overrides' | 'settings'>) {
  return async () => env.overrides?.executablePath ?? (await env.settings()).executablePath
}
