import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { snapshotPlaywrightPage } from '../../../src/main/browser'
import { describeNeeding } from '../../support/requirements'
import { CHROMIUM } from './support/harness'

// Pages whose anti-flicker style hides everything until a script (here: never run) shows the page.
const PAGES: Record<string, string> = {
  '/body-hidden.html': `<!doctype html><html><head><title>T</title>
    <style>body { visibility: hidden !important; }</style></head>
    <body><h1>Halibut schooner</h1><p>Skipper Wade Bassi keeps an eye on the fish.</p>
    <div style="visibility: hidden">SECRET own hidden block</div><button>Subscribe</button></body></html>`,
  '/async-hide.html': `<!doctype html><html class="async-hide"><head><title>T</title>
    <style>.async-hide { opacity: 0 !important }</style></head>
    <body><p>Optimize hides the page until the experiment loads.</p>
    <p style="opacity: 0">SECRET transparent text</p></body></html>`,
  '/body-transparent.html': `<!doctype html><html><head><title>T</title>
    <style>body.loading { opacity: 0 }</style></head>
    <body class="loading"><p>Shown once the app script runs.</p></body></html>`,
  '/normal.html': `<!doctype html><html><head><title>T</title></head>
    <body><p>Plain visible text.</p><p style="visibility:hidden">SECRET hidden text</p></body></html>`,
}

let server: Server
let origin: string
let browser: Browser

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = PAGES[req.url ?? '']
    if (!body) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => server?.close(resolve))
})

async function open(path: string): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(`${origin}${path}`)
  return page
}

const bodyVisibility = (page: Page) =>
  page.evaluate(() => ({
    body: getComputedStyle(document.body).visibility,
    html: getComputedStyle(document.documentElement).opacity,
  }))

describeNeeding(['chromium'], 'pages hidden by an anti-flicker style, in Chromium', () => {
  describe('a page hidden whole by an anti-flicker style', () => {
    it('is read when the body has visibility: hidden !important, and left as it was', async () => {
      const page = await open('/body-hidden.html')
      const snapshot = await snapshotPlaywrightPage(page)
      expect(snapshot.markdown).toContain('# Halibut schooner')
      expect(snapshot.markdown).toContain('Skipper Wade Bassi keeps an eye on the fish.')
      expect(snapshot.markdown).toMatch(/INTERACTIVE::button::.*Subscribe/)
      // What the page hides itself stays hidden.
      expect(snapshot.markdown).not.toContain('SECRET')
      expect(await bodyVisibility(page)).toMatchObject({ body: 'hidden' })
      await page.close()
    })

    it('is read when the body has opacity 0', async () => {
      const page = await open('/body-transparent.html')
      const snapshot = await snapshotPlaywrightPage(page)
      expect(snapshot.markdown).toContain('Shown once the app script runs.')
      expect(await page.evaluate(() => getComputedStyle(document.body).opacity)).toBe('0')
      await page.close()
    })

    it('is read when the html element has opacity 0 (async-hide)', async () => {
      const page = await open('/async-hide.html')
      const snapshot = await snapshotPlaywrightPage(page)
      expect(snapshot.markdown).toContain('Optimize hides the page until the experiment loads.')
      expect(snapshot.markdown).not.toContain('SECRET')
      expect(await bodyVisibility(page)).toMatchObject({ html: '0' })
      await page.close()
    })

    it('changes nothing on a page that shows itself', async () => {
      const page = await open('/normal.html')
      const snapshot = await snapshotPlaywrightPage(page)
      expect(snapshot.markdown).toContain('Plain visible text.')
      expect(snapshot.markdown).not.toContain('SECRET')
      expect(await page.locator('style').count()).toBe(0)
      await page.close()
    })
  })
})
