import { defineConfig } from '@playwright/test'

// Debian's Chromium, not a downloaded browser: `npx playwright install` cannot run here.
export const CHROMIUM_PATH = process.env.BUREAU_CHROMIUM ?? '/usr/bin/chromium'
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  // A busy 2-core machine gets 10 s, not 5, for the page to show what a test waits for.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Each worker starts one host, data folder and scripted model on free ports that its spec files take turns on
  // (reset between files); specs needing other host options start their own in beforeAll. Two workers fill two
  // cores beside the type check that npm test runs at the same time.
  workers: Number(process.env.BUREAU_E2E_WORKERS ?? 2),
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
})
