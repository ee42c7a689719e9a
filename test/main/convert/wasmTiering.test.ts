import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { pdfiumWasmFlags } from '../../../src/main/convert/wasmTiering'
import { tempDirs } from '../../support/tempDir'

// How PDFium's WebAssembly is compiled, seen from V8 itself: a fresh process (V8's flags are the
// process's) converts a PDF under one lifetime, then asks V8 (`--allow-natives-syntax`) which compiler
// produced the code of a function the conversion called.
const dirs = tempDirs('bureau-wasm-tiering-')
afterAll(() => dirs.cleanup())

const source = (path: string) => new URL(path, import.meta.url).href
const pdf = fileURLToPath(new URL('../../fixtures/core/report.pdf', import.meta.url))

const RUNNER = `
import { readFileSync } from 'node:fs'
const [lifetimeUrl, coreUrl, limitsUrl, pdfiumUrl, lifetime, pdf] = process.argv.slice(2)
const { setConvertLifetime } = await import(lifetimeUrl)
const { convertBytes } = await import(coreUrl)
const { defaultLimits } = await import(limitsUrl)
const { acquirePdfium, releasePdfium } = await import(pdfiumUrl)
setConvertLifetime(lifetime)
const env = { limitsFor: (format) => defaultLimits[format], ocr: () => undefined, vision: undefined }
const input = { name: 'report.pdf', bytes: new Uint8Array(readFileSync(pdf)) }
const result = await convertBytes(input, { keepDataUris: false, maxChars: undefined }, new AbortController().signal, env)
const engine = await acquirePdfium()
const loadPage = engine.x.FPDF_LoadPage
releasePdfium(engine)
const turbofan = new Function('f', 'return %IsTurboFanFunction(f)')
const liftoff = new Function('f', 'return %IsLiftoffFunction(f)')
// Background compilation: wait up to 20 s for TurboFan's code (the baseline never gets it).
const until = Date.now() + (lifetime === 'session' ? 20000 : 1500)
while (!turbofan(loadPage) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
console.log(JSON.stringify({ chars: result.markdown.length, turbofan: turbofan(loadPage), liftoff: liftoff(loadPage) }))
`

const runner = join(await dirs.make(), 'runner.mjs')
await writeFile(runner, RUNNER)

function convertUnder(lifetime: 'session' | 'command'): {
  chars: number
  turbofan: boolean
  liftoff: boolean
} {
  const modules = [
    '../../../src/main/convert/lifetime.ts',
    '../../../src/main/convert/convertCore.ts',
    '../../../src/main/convert/limits.ts',
    '../../../src/main/convert/pdf/pdfium.ts',
  ].map(source)
  const output = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', runner, ...modules, lifetime, pdf],
    { encoding: 'utf8' },
  )
  return JSON.parse(output) as { chars: number; turbofan: boolean; liftoff: boolean }
}

// The flags were chosen for Node 20's V8 (wasmTiering.ts); another V8 is left at its defaults.
const checkedV8 = /^11\.3\./.test(process.versions.v8)
if (!checkedV8)
  console.log(`wasmTiering: V8 ${process.versions.v8} is left at its defaults; the tier checks are skipped`)

describe('the PDF engine is compiled for the process lifetime', () => {
  it('names the flags of each lifetime', () => {
    expect(pdfiumWasmFlags('command').split(' ')).toEqual(['--liftoff-only', '--wasm-lazy-validation'])
    expect(pdfiumWasmFlags('session').split(' ')).toEqual([
      '--no-liftoff-only',
      '--wasm-tier-up',
      '--no-wasm-dynamic-tiering',
      '--wasm-lazy-validation',
    ])
  })

  it.runIf(checkedV8)('a CLI command keeps the baseline compiler', () => {
    const run = convertUnder('command')
    expect(run.chars).toBeGreaterThan(1000)
    expect(run).toMatchObject({ liftoff: true, turbofan: false })
  })

  it.runIf(checkedV8)(
    "the app's session gets TurboFan's code in the background",
    () => {
      const run = convertUnder('session')
      expect(run.chars).toBeGreaterThan(1000)
      expect(run).toMatchObject({ liftoff: false, turbofan: true })
    },
    30_000,
  )
})
