import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from '@playwright/test'

const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url))
const require = createRequire(import.meta.url)

/** Review screenshots are taken only when asked for (BUREAU_E2E_SHOTS=1): each costs a second on two cores. */
export const REVIEW_SHOTS = Boolean(process.env.BUREAU_E2E_SHOTS)

/** Saves a screenshot of a page or an element for review under e2e/artifacts/ (gitignored), when asked for. */
export async function snapshot(target: Page | Locator, name: string): Promise<void> {
  if (!REVIEW_SHOTS) return
  await mkdir(artifacts, { recursive: true })
  await target.screenshot({ path: `${artifacts}${name}.png` })
}

export interface DropFile {
  name: string
  bytes: Uint8Array
  type?: string
}

/** Drags files over the chat and drops them, as a user does from the file manager. */
export async function dropFiles(
  page: Page,
  files: DropFile[],
  options: { screenshot?: string } = {},
): Promise<void> {
  // Base64, not an array of numbers: Playwright serializes each array item as an object, which took
  // seconds for a 135 KB file on a loaded machine.
  const payload = files.map((f) => ({
    name: f.name,
    type: f.type ?? '',
    base64: Buffer.from(f.bytes).toString('base64'),
  }))
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer()
    for (const f of list) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))
      dt.items.add(new File([bytes], f.name, { type: f.type }))
    }
    return dt
  }, payload)
  const area = page.getByTestId('drop-area')
  await area.dispatchEvent('dragenter', { dataTransfer: transfer })
  await area.dispatchEvent('dragover', { dataTransfer: transfer })
  await page.getByTestId('drop-overlay').waitFor()
  if (options.screenshot) await snapshot(page, options.screenshot)
  await area.dispatchEvent('drop', { dataTransfer: transfer })
}

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: string[]; failureSummary?: string }>
}

let axeScript: string | undefined
const axeSource = () => {
  axeScript ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
  return axeScript
}

/** Runs axe-core (WCAG 2 A/AA rules) in the page; needs a context created with `bypassCSP: true`. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Once per document: specs run axe at several widths and in both themes on the same page.
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource() })
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[]; passes: unknown[] }> }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] },
    })
    if (result.passes.length === 0) throw new Error('axe ran no rule: nothing was checked')
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }))
  })
}

export type Scheme = 'light' | 'dark'

export interface AxeTier {
  /** Added to the test's title: empty in `npm test`, naming the full sweep in the soak tier. */
  title: string
  tag: string[]
  /** Whether axe runs at this width in this theme. */
  axeAt(width: number, scheme: Scheme): boolean
}

/**
 * Axe costs about a second a look on two cores, and `layout.spec.ts` already sweeps the layouts: a test
 * that checks a screen at several widths in both themes runs axe in `npm test` on the widest look in the
 * light theme and the narrowest in the dark one, and in the soak tier (tag @soak) on every look.
 */
export function axeTiers(widths: readonly number[]): AxeTier[] {
  const wide = Math.max(...widths)
  const narrow = Math.min(...widths)
  return [
    {
      title: '',
      tag: [],
      axeAt: (width, scheme) => (scheme === 'light' ? width === wide : width === narrow),
    },
    { title: ' (axe at every width in both themes)', tag: ['@soak'], axeAt: () => true },
  ]
}
