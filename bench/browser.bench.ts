import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { Parser } from 'htmlparser2'
import { chromium, type Page } from 'playwright-core'
import { snapshotPlaywrightPage } from '../src/main/browser'
import { PAGE_CHARS } from '../src/main/browser/snapshot/paging'
import { recallOfCounts } from '../test/support/wordRecall'
import { corpusDir, median, skippedWithout } from './support'
import type { BenchRow } from './types'

// The 40 readability test pages (corpus/web in the third-party folder), served on loopback; everything they load from
// elsewhere is aborted so the run is offline and repeatable. For each page: raw HTML bytes, our Markdown
// bytes, Playwright's ariaSnapshot() bytes of the same loaded page, word recall of expected.html in our
// Markdown, the time of one read (the in-page pass plus the transfer), and whether every visible
// interactive element got a marker.

const corpus = corpusDir('web')
const CHROMIUM = process.env.BUREAU_CHROMIUM ?? '/usr/bin/chromium'

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number
}

function htmlText(html: string): string {
  let text = ''
  let skip = 0
  const parser = new Parser(
    {
      onopentag: (name) => {
        if (name === 'script' || name === 'style') skip++
        text += ' '
      },
      onclosetag: (name) => {
        if (name === 'script' || name === 'style') skip--
        text += ' '
      },
      ontext: (value) => {
        if (skip === 0) text += value
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  return text
}

/** Words by letters and digits; Chinese and Japanese characters count one by one (no spaces to split on). */
function words(text: string): Map<string, number> {
  const counts = new Map<string, number>()
  const spaced = text
    .toLowerCase()
    .replace(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu, ' $1 ')
  for (const word of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  return counts
}

/** Share of the expected words (with repeats) that our Markdown contains. */
function recall(expected: string, ours: string): number {
  return recallOfCounts(words(expected), words(ours))
}

/**
 * Visible interactive elements by the browser's own checkVisibility (display, visibility, opacity,
 * content-visibility) with a non-empty box, that the serializer did not register. Elements that are
 * aria-hidden, entirely off-page or inside a zero-size box that clips its overflow are excluded: those
 * are hidden on purpose.
 */
const MISSED_INTERACTIVE = `(() => {
  const registry = window[Symbol.for('bureau.elements')]
  const selector = 'a[href], button, select, textarea, input:not([type=hidden]), [role=button], [role=link], [role=tab], [role=menuitem], [role=checkbox], [role=radio], summary'
  const missed = []
  let visible = 0
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
    const r = el.getBoundingClientRect()
    if (r.width < 2 || r.height < 2 || r.right + scrollX <= 0 || r.bottom + scrollY <= 0) continue
    if (el.closest('[aria-hidden=true]')) continue
    let clipped = false
    for (let a = el.parentElement; a && !clipped; a = a.parentElement) {
      const s = getComputedStyle(a)
      const box = a.getBoundingClientRect()
      clipped = (s.overflowY !== 'visible' && box.height === 0) || (s.overflowX !== 'visible' && box.width === 0)
    }
    if (clipped) continue
    visible++
    if (!registry || !registry.ids.has(el)) missed.push(el.outerHTML.slice(0, 120))
  }
  return { visible, missed }
})()`

interface PageResult {
  name: string
  raw: number
  /** Bytes of the article text alone (expected.html without tags): the floor for any faithful rendering. */
  article: number
  ours: number
  aria: number
  recall: number
  ms: number
  visible: number
  missed: string[]
}

async function measure(page: Page, url: string, name: string): Promise<PageResult> {
  await page.goto(url, { waitUntil: 'load', timeout: 20_000 }).catch(() => {})
  const raw = statSync(join(corpus, name, 'source.html')).size
  const started = performance.now()
  const snapshot = await snapshotPlaywrightPage(page)
  const ms = performance.now() - started
  const aria = await page
    .locator('body')
    .ariaSnapshot({ timeout: 20_000 })
    .catch(() => '')
  const expected = htmlText(readFileSync(join(corpus, name, 'expected.html'), 'utf8'))
  const article = Buffer.byteLength(expected.replace(/\s+/g, ' ').trim())
  const interactive = (await page.evaluate(MISSED_INTERACTIVE)) as { visible: number; missed: string[] }
  return {
    name,
    raw,
    article,
    ours: Buffer.byteLength(snapshot.markdown),
    aria: Buffer.byteLength(aria),
    recall: recall(expected, snapshot.markdown),
    ms,
    visible: interactive.visible,
    missed: interactive.missed,
  }
}

export default async function bench(): Promise<BenchRow[]> {
  const skipped = skippedWithout(corpus)
  if (skipped) return skipped
  const names = readdirSync(corpus)
    .filter((n) => statSync(join(corpus, n)).isDirectory())
    .sort()
  const server = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? '/').split('/')[1] ?? '')
    if (!names.includes(name)) return void res.writeHead(404).end()
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(readFileSync(join(corpus, name, 'source.html')))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
  const results: PageResult[] = []
  try {
    const context = await browser.newContext()
    await context.route('**/*', (route) =>
      route.request().url().startsWith(origin) ? route.fallback() : route.abort('blockedbyclient'),
    )
    for (const name of names) {
      const page = await context.newPage()
      try {
        results.push(await measure(page, `${origin}/${encodeURIComponent(name)}/test/page.html`, name))
      } finally {
        await page.close()
      }
    }
  } finally {
    await browser.close()
    server.close()
  }

  const reductions = results.map((r) => r.raw / Math.max(1, r.ours))
  const smallerThanAria = results.filter((r) => r.ours < r.aria)
  const lowRecall = results.filter((r) => r.recall < 0.95)
  const missed = results.flatMap((r) => r.missed.map((m) => `${r.name}: ${m}`))
  const visible = results.reduce((sum, r) => sum + r.visible, 0)
  const times = results.map((r) => r.ms)
  if (process.env.BUREAU_BENCH_DETAIL) {
    for (const r of results)
      process.stderr.write(
        `${r.name.padEnd(34)} raw ${String(r.raw).padStart(8)} ours ${String(r.ours).padStart(7)} aria ${String(r.aria).padStart(7)} recall ${r.recall.toFixed(3)} ${r.ms.toFixed(0).padStart(4)} ms missed ${r.missed.length}/${r.visible}\n`,
      )
    for (const m of missed.slice(0, 30)) process.stderr.write(`missed ${m}\n`)
  }
  return [
    { name: 'pages', value: results.length, unit: 'pages' },
    {
      name: 'median reduction over raw HTML',
      value: median(reductions),
      unit: 'x',
      target: '≥ 50x',
      pass: median(reductions) >= 50,
      note: `min ${Math.min(...reductions).toFixed(1)}x`,
    },
    {
      name: 'median raw HTML / article text alone',
      value: median(results.map((r) => r.raw / Math.max(1, r.article))),
      unit: 'x',
      note: 'the reduction of a rendering that kept only the article text, no interactive element',
    },
    { name: 'median Markdown size', value: median(results.map((r) => r.ours)), unit: 'bytes' },
    {
      name: 'median first page (what navigate returns)',
      value: median(results.map((r) => Math.min(r.ours, PAGE_CHARS))),
      unit: 'chars',
      note: `pages of ${PAGE_CHARS} characters; read_page with page or query for the rest`,
    },
    { name: 'median ariaSnapshot size', value: median(results.map((r) => r.aria)), unit: 'bytes' },
    {
      name: 'pages smaller than ariaSnapshot',
      value: smallerThanAria.length,
      unit: `of ${results.length}`,
      target: '> half',
      pass: smallerThanAria.length > results.length / 2,
      note: `median ours/aria ${median(results.map((r) => r.ours / Math.max(1, r.aria))).toFixed(2)}; larger: ${results
        .filter((r) => r.ours >= r.aria)
        .map((r) => r.name)
        .join(', ')}`,
    },
    {
      name: 'visible interactive elements missed',
      value: missed.length,
      unit: `of ${visible}`,
      target: '0',
      pass: missed.length === 0,
      note: missed.slice(0, 3).join(' | '),
    },
    {
      name: 'median word recall of expected.html',
      value: median(results.map((r) => r.recall)),
      unit: 'ratio',
      target: '≥ 0.95',
      pass: median(results.map((r) => r.recall)) >= 0.95,
      note: `min ${Math.min(...results.map((r) => r.recall)).toFixed(3)}`,
    },
    {
      name: 'pages with recall below 0.95',
      value: lowRecall.length,
      unit: `of ${results.length}`,
      note: lowRecall.map((r) => `${r.name} ${r.recall.toFixed(3)}`).join(', '),
    },
    {
      name: 'median extraction time',
      value: median(times),
      unit: 'ms',
      target: '< 150 ms',
      pass: median(times) < 150,
      note: `p90 ${percentile(times, 90).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    },
  ]
}
