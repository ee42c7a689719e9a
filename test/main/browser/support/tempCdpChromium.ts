import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DebuggableBrowser } from '../../../../src/main/browser/bureauProfile/startDebuggableBrowser'
import { startCdpChromium } from './harness'

/**
 * Headless Chromium with a DevTools endpoint on a fresh profile in a temp folder (named from `prefix`),
 * for one test file to share; `stop()` quits it and removes the folder.
 */
export async function startTempCdpChromium(prefix: string): Promise<DebuggableBrowser> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  const removeDir = () => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  let browser: DebuggableBrowser
  try {
    browser = await startCdpChromium(join(dir, 'profile'))
  } catch (error) {
    await removeDir()
    throw error
  }
  return {
    ...browser,
    async stop() {
      await browser.stop()
      // Chromium's helper processes may still be writing into the profile for a moment after it quit.
      await removeDir()
    },
  }
}
