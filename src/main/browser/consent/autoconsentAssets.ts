import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

export interface AutoconsentAssets {
  /** The content script for Playwright (an IIFE talking through `autoconsentSendMessage`). */
  script: string
  /** The rules compiled for one URL and frame. */
  rulesFor(url: string, mainFrame: boolean): unknown
}

let loading: Promise<AutoconsentAssets> | undefined

/** Loads @duckduckgo/autoconsent's bundled script and rules once (offline, from node_modules). */
export function loadAutoconsentAssets(): Promise<AutoconsentAssets> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url)
    // The Playwright bundle is not in the package's exports map: it sits next to the main entry.
    const scriptPath = join(dirname(require.resolve('@duckduckgo/autoconsent')), 'autoconsent.playwright.js')
    const rulesPath = require.resolve('@duckduckgo/autoconsent/rules/compact-rules.json')
    const [script, rulesText, lib] = await Promise.all([
      readFile(scriptPath, 'utf8'),
      readFile(rulesPath, 'utf8'),
      import('@duckduckgo/autoconsent'),
    ])
    const compact = JSON.parse(rulesText) as Parameters<typeof lib.filterCompactRules>[0]
    return {
      script,
      rulesFor: (url, mainFrame) => ({
        autoconsent: [],
        compact: lib.filterCompactRules(compact, { url, mainFrame }),
      }),
    }
  })()
  loading.catch(() => {
    loading = undefined
  })
  return loading
}
