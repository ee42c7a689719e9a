import { lstat, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { chromium } from '@playwright/test'

/** The DevTools endpoint of the browser "Start Edge for Bureau" left running on the data folder, if any. */
async function runningEndpoint(profileDir: string): Promise<string | null> {
  const text = await readFile(join(profileDir, 'DevToolsActivePort'), 'utf8').catch(() => '')
  const port = Number(text.split('\n')[0])
  return Number.isInteger(port) && port > 0 ? `http://127.0.0.1:${port}` : null
}

const answers = (endpoint: string) =>
  fetch(`${endpoint}/json/version`, { signal: AbortSignal.timeout(1_000) }).then(
    (r) => r.ok,
    () => false,
  )
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  )

/**
 * Closes the Bureau browser (it is started detached and outlives the host) and waits until its DevTools
 * endpoint stops answering and Chromium has released the profile, so the folder can be removed.
 */
export async function closeBureauBrowser(dataDir: string): Promise<void> {
  const profileDir = join(dataDir, 'browser-profile')
  const endpoint = await runningEndpoint(profileDir)
  if (!endpoint || !(await answers(endpoint))) return
  const browser = await chromium.connectOverCDP(endpoint)
  const session = await browser.newBrowserCDPSession()
  // Browser.close answers before the process is gone.
  await session.send('Browser.close').catch(() => {})
  for (let i = 0; i < 200; i++) {
    if (!(await answers(endpoint)) && !(await exists(join(profileDir, 'SingletonLock')))) return
    await sleep(50)
  }
  throw new Error(`the Bureau browser at ${endpoint} did not exit`)
}
