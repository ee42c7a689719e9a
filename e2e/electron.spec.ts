import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { _electron as electron } from 'playwright-core'

const require = createRequire(import.meta.url)

function electronBinary(): string | undefined {
  try {
    const path = require('electron') as unknown
    return typeof path === 'string' && existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

const binary = electronBinary()
if (!binary) {
  console.log(
    'Electron smoke test skipped: the Electron binary is not installed here (its download is skipped). Run `node node_modules/electron/install.js` to install it.',
  )
}

test.describe('Electron smoke test', () => {
  test.skip(!binary, 'Electron binary not installed (download skipped); install it to run this test')

  test('the desktop window opens hardened and shows the version', async () => {
    const app = await electron.launch({
      executablePath: binary,
      args: [fileURLToPath(new URL('..', import.meta.url)), '--no-sandbox'],
      env: {
        ...process.env,
        BUREAU_DATA_DIR: fileURLToPath(new URL('../test-results/electron-data', import.meta.url)),
      },
    })
    const page = await app.firstWindow()
    await page.getByRole('button', { name: 'About' }).click()
    await expect(page.getByTestId('about-host')).toHaveText('Desktop app')
    // Isolation seen from the page: no Node globals, only the contract's transport on window.bureau.
    const exposed = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      bureau: Object.keys((globalThis as { bureau?: object }).bureau ?? {}).sort(),
    }))
    expect(exposed).toEqual({
      require: 'undefined',
      process: 'undefined',
      bureau: ['invoke', 'kind', 'platform', 'subscribe'],
    })
    expect(await page.evaluate(() => window.open('https://example.com') === null)).toBe(true)
    await app.close()
  })
})
