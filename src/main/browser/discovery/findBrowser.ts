import { accessSync, constants } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, isAbsolute, join } from 'node:path'
import { type BrowserCandidate, type BrowserFamily, browserCandidates } from './browserCandidates'

export interface FindBrowserOptions {
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
  home?: string
  /** Only these families, in this order of preference. */
  families?: readonly BrowserFamily[]
  /** Replaces the file check (tests). */
  exists?: (path: string) => boolean
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function onPath(command: string, env: NodeJS.ProcessEnv, exists: (path: string) => boolean): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, command)
    if (exists(candidate)) return candidate
  }
  return null
}

/** The first installed browser of the table (Edge, then Chrome, then Chromium), or null. */
export function findBrowser(options: FindBrowserOptions = {}): BrowserCandidate | null {
  const platform = options.platform ?? process.platform
  const env = options.env ?? process.env
  const exists = options.exists ?? executable
  const families = options.families ?? ['edge', 'chrome', 'chromium']
  const all = browserCandidates(platform, env, options.home ?? homedir())
  for (const family of families) {
    for (const candidate of all.filter((c) => c.family === family)) {
      const isPath = isAbsolute(candidate.path) || /^[a-zA-Z]:\\/.test(candidate.path)
      const found = isPath
        ? exists(candidate.path)
          ? candidate.path
          : null
        : onPath(candidate.path, env, exists)
      if (found) return { ...candidate, path: found }
    }
  }
  return null
}
