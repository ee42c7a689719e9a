import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserHandlers } from '../../../src/main/browser'
import { readActivePort } from '../../../src/main/browser/bureauProfile/devToolsActivePort'
import { HEADLESS_FLAGS } from '../../../src/main/browser/config/launchFlags'
import type { BrowserSettings } from '../../../src/main/browser/types'
import { describeNeeding } from '../../support/requirements'
import { CHROMIUM } from './support/harness'

describeNeeding(['chromium'], 'Start Edge for Bureau, with Chromium', () => {
  describe('Start Edge for Bureau (browser.startForBureau)', () => {
    let dataDir: string
    const saved: string[] = []
    let handlers: ReturnType<typeof browserHandlers>
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'bureau-start-'))
      const settings: BrowserSettings = {
        mode: 'edge-profile',
        executablePath: CHROMIUM,
        profileDir: null,
        cdpEndpoint: null,
        allowLocalNetwork: false,
        searchUrl: 'https://html.duckduckgo.com/html/?q={query}',
      }
      handlers = browserHandlers({
        env: { dataDir, settings: () => settings },
        saveEndpoint: async (endpoint) => saved.push(endpoint),
        extraArgs: HEADLESS_FLAGS,
      })
    })
    afterAll(async () => {
      // The started browser outlives the call on purpose; the test closes it over CDP.
      const running = await readActivePort(join(dataDir, 'browser-profile'))
      if (running) {
        const browser = await chromium.connectOverCDP(running.endpoint).catch(() => null)
        const session = await browser?.newBrowserCDPSession().catch(() => null)
        await session?.send('Browser.close').catch(() => {})
        // Browser.close answers before the process is gone: wait until the endpoint stops answering.
        for (let i = 0; i < 100; i++) {
          const alive = await fetch(`${running.endpoint}/json/version`).then(
            () => true,
            () => false,
          )
          if (!alive) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      // Chromium's helpers may still flush the profile for a moment; rm retries ENOTEMPTY/EBUSY.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    })

    it('starts the browser on the Bureau profile with remote debugging, saves the endpoint, and reuses it', async () => {
      const first = await handlers['browser.startForBureau']()
      expect(first).toMatchObject({ browser: 'chromium', reused: false })
      expect(first.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(saved).toEqual([first.endpoint])
      const version = await fetch(`${first.endpoint}/json/version`)
      expect(version.ok).toBe(true)
      const again = await handlers['browser.startForBureau']()
      expect(again).toEqual({ ...first, reused: true })
    })
  })
})
