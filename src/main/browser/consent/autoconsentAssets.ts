import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

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
    const scriptPath = require.resolve('@duckduckgo/autoconsent/dist/autoconsent.playwright.js')
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
