import { join } from 'node:path'

export type BrowserFamily = 'edge' | 'chrome' | 'chromium'

export interface BrowserCandidate {
  family: BrowserFamily
  /** Absolute path, or a bare command name looked up on PATH. */
  path: string
  /** The browser's default user-data folder (its profiles), for edge-profile mode. */
  userDataDir: string | null
}

/**
 * Where Edge, Chrome and Chromium install on each platform, Edge first. A table rather than
 * `edge-paths`: we need Chrome and Chromium too, and each browser's default profile folder.
 */
export function browserCandidates(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string,
): BrowserCandidate[] {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA ?? join(home, 'AppData', 'Local')
    const roots = [env['PROGRAMFILES(X86)'], env.PROGRAMFILES, local].filter((r): r is string => Boolean(r))
    const under = (family: BrowserFamily, rel: string, data: string) =>
      roots.map((root) => ({ family, path: `${root}\\${rel}`, userDataDir: `${local}\\${data}` }))
    return [
      ...under('edge', 'Microsoft\\Edge\\Application\\msedge.exe', 'Microsoft\\Edge\\User Data'),
      ...under('chrome', 'Google\\Chrome\\Application\\chrome.exe', 'Google\\Chrome\\User Data'),
      ...under('chromium', 'Chromium\\Application\\chrome.exe', 'Chromium\\User Data'),
    ]
  }
  if (platform === 'darwin') {
    const support = join(home, 'Library', 'Application Support')
    const app = (family: BrowserFamily, name: string, binary: string, data: string) =>
      ['/Applications', join(home, 'Applications')].map((dir) => ({
        family,
        path: `${dir}/${name}.app/Contents/MacOS/${binary}`,
        userDataDir: join(support, data),
      }))
    return [
      ...app('edge', 'Microsoft Edge', 'Microsoft Edge', 'Microsoft Edge'),
      ...app('chrome', 'Google Chrome', 'Google Chrome', 'Google/Chrome'),
      ...app('chromium', 'Chromium', 'Chromium', 'Chromium'),
    ]
  }
  const config = env.XDG_CONFIG_HOME ?? join(home, '.config')
  return [
    { family: 'edge', path: '/opt/microsoft/msedge/msedge', userDataDir: join(config, 'microsoft-edge') },
    { family: 'edge', path: 'microsoft-edge-stable', userDataDir: join(config, 'microsoft-edge') },
    { family: 'edge', path: 'microsoft-edge', userDataDir: join(config, 'microsoft-edge') },
    { family: 'chrome', path: '/opt/google/chrome/chrome', userDataDir: join(config, 'google-chrome') },
    { family: 'chrome', path: 'google-chrome-stable', userDataDir: join(config, 'google-chrome') },
    { family: 'chrome', path: 'google-chrome', userDataDir: join(config, 'google-chrome') },
    { family: 'chromium', path: '/usr/bin/chromium', userDataDir: join(config, 'chromium') },
    { family: 'chromium', path: 'chromium', userDataDir: join(config, 'chromium') },
    { family: 'chromium', path: 'chromium-browser', userDataDir: join(config, 'chromium') },
  ]
}
