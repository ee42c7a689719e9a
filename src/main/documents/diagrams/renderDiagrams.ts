import type { Page } from 'playwright-core'
import type { DocumentBrowser } from '../chromium/documentBrowser'
import { mermaidScriptPath } from '../chromium/documentBrowser'

export interface RenderedDiagram {
  ok: true
  svg: string
  /** Only when PNGs were asked for (DOCX): three device pixels per CSS pixel, about 288 dpi. */
  png?: Uint8Array
  /** CSS pixels (96 per inch). */
  width: number
  height: number
}
export interface FailedDiagram {
  ok: false
  error: string
}
export type DiagramResult = RenderedDiagram | FailedDiagram

declare const mermaid: {
  initialize(config: Record<string, unknown>): void
  parse(code: string): Promise<unknown>
  render(id: string, code: string): Promise<{ svg: string }>
}

const FONT = '"Liberation Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif'
const DIAGRAM_TIMEOUT_MS = 15_000

async function preparePage(page: Page): Promise<void> {
  await page.setContent('<!doctype html><html><body style="margin:0;background:#fff"></body></html>')
  await page.addScriptTag({ path: mermaidScriptPath() })
  await page.evaluate((fontFamily) => {
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'default', fontFamily })
  }, FONT)
}

async function renderOne(page: Page, id: string, code: string): Promise<{ svg: string } | { error: string }> {
  return page.evaluate(
    async ({ id, code }) => {
      try {
        await mermaid.parse(code)
        const { svg } = await mermaid.render(id, code)
        return { svg }
      } catch (error) {
        document.getElementById(`d${id}`)?.remove()
        return {
          error: String(error instanceof Error ? error.message : error)
            .split('\n')
            .slice(0, 3)
            .join(' '),
        }
      }
    },
    { id, code },
  )
}

async function measureAndShoot(page: Page, svg: string, png: boolean) {
  await page.evaluate((markup) => {
    document.body.innerHTML = `<div id="shot" style="display:inline-block;padding:4px">${markup}</div>`
    const element = document.querySelector('#shot svg') as SVGSVGElement | null
    const width = element?.viewBox.baseVal?.width
    // Mermaid sizes SVGs with max-width only; fix the natural size so the picture is not squeezed.
    if (element && width) element.style.width = `${width}px`
  }, svg)
  const shot = page.locator('#shot')
  const box = await shot.boundingBox()
  const image = png ? new Uint8Array(await shot.screenshot({ type: 'png', scale: 'device' })) : undefined
  return { width: Math.round(box?.width ?? 600), height: Math.round(box?.height ?? 400), image }
}

// One page per browser keeps mermaid (3.5 MB of script) parsed between documents; calls take turns on it.
const pages = new WeakMap<DocumentBrowser, { page: Promise<Page>; turn: Promise<unknown> }>()

function mermaidPage(browser: DocumentBrowser) {
  let entry = pages.get(browser)
  if (!entry) {
    const page = browser.diagramPage().then(async (p) => {
      p.setDefaultTimeout(DIAGRAM_TIMEOUT_MS)
      await preparePage(p)
      return p
    })
    entry = { page, turn: Promise.resolve() }
    pages.set(browser, entry)
  }
  return entry
}

async function drawAll(page: Page, sources: readonly string[], png: boolean): Promise<DiagramResult[]> {
  const results: DiagramResult[] = []
  for (const [index, code] of sources.entries()) {
    const rendered = await renderOne(page, `mmd${index}`, code).catch((error: unknown) => ({
      error: error instanceof Error ? (error.message.split('\n')[0] ?? 'failed') : String(error),
    }))
    if ('error' in rendered) {
      results.push({ ok: false, error: rendered.error })
      continue
    }
    const shot = await measureAndShoot(page, rendered.svg, png)
    results.push({
      ok: true,
      svg: rendered.svg,
      width: shot.width,
      height: shot.height,
      ...(shot.image ? { png: shot.image } : {}),
    })
  }
  return results
}

/** Draws each Mermaid source with the bundled mermaid in an offline page; failures are reported, not thrown. */
export async function renderDiagrams(
  browser: DocumentBrowser,
  sources: readonly string[],
  options: { png: boolean },
): Promise<DiagramResult[]> {
  if (sources.length === 0) return []
  const entry = mermaidPage(browser)
  const run = entry.turn.then(async () => drawAll(await entry.page, sources, options.png))
  entry.turn = run.catch(() => undefined)
  try {
    return await run
  } catch (error) {
    pages.delete(browser)
    throw error
  }
}
