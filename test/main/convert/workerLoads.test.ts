import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, repoRoot } from '../../support/builtCli'

// What a cold `bureau convert` of .docx files loads before and during its first conversion: the
// worker's own chunk and the Word chunk, and what they require at their top (a `require()` inside
// `Promise.resolve().then(...)` is a lazy import, loaded only when that code runs). fflate's module
// builds its tables as it loads (~10 ms in a cold worker, ~15 ms on the CLI's main thread); plain
// packages are read from their central directory and need none of it. domino and turndown (~440 KB)
// are only for the documents the light tree leaves to the DOM path (docx/viaHtml.ts).
const worker = join(repoRoot, 'out', 'worker')
const mainChunks = join(repoRoot, 'out', 'main', 'chunks')
const STATIC_REQUIRE = /^(?:(?:const|let|var) [\w$]+ = )?require\("\.\/([^"]+)"\);?$/gm
const STATIC_IMPORT = /^import\s*(?:[^"';]*?\bfrom\s*)?"([^"]+)";?$/gm

function chunk(dir: string, prefix: string): string {
  const name = readdirSync(dir).find((file) => file.startsWith(`${prefix}-`))
  if (!name) throw new Error(`no ${prefix} chunk in ${dir}`)
  return name
}

/** The files `entry` loads before its own code runs, itself included. */
function loadedWith(dir: string, entry: string, pattern: RegExp): Set<string> {
  const seen = new Set<string>([entry])
  const queue = [entry]
  for (let file = queue.pop(); file; file = queue.pop()) {
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(pattern)) {
      const target = join(dirname(file), match[1]!)
      if (seen.has(target) || !target.endsWith('js')) continue
      seen.add(target)
      queue.push(target)
    }
  }
  return seen
}

const bundles = (dir: string, file: string, library: string) =>
  readFileSync(join(dir, file), 'utf8').includes(`// node_modules/${library}/`)

describe('what a .docx conversion loads', () => {
  beforeAll(() => assertBuilt())

  it('the worker and its Word chunk load no fflate, domino or turndown', () => {
    const loaded = new Set([
      ...loadedWith(worker, chunk(worker, 'convertWorker'), STATIC_REQUIRE),
      ...loadedWith(worker, chunk(worker, 'docx'), STATIC_REQUIRE),
    ])
    expect(loaded.size).toBeGreaterThan(3)
    for (const library of ['fflate', '@mixmark-io/domino', 'turndown', 'htmlparser2', 'saxes'])
      expect(
        [...loaded].filter((file) => bundles(worker, file, library)),
        library,
      ).toEqual([])
    // underscore as Node loads it for mammoth (one CommonJS file), not as its 161 ES modules.
    const holds = (text: string) =>
      [...loaded].some((file) => readFileSync(join(worker, file), 'utf8').includes(`// node_modules/${text}`))
    expect(holds('underscore/underscore-node-f.cjs')).toBe(true)
    expect(holds('underscore/modules/')).toBe(false)
    // mammoth itself is there: the walk reads the Word chunk's own requires.
    expect([...loaded].some((file) => bundles(worker, file, 'mammoth'))).toBe(true)
    // The walk does see fflate where it is loaded at once: the spreadsheet chunk.
    const sheets = loadedWith(worker, chunk(worker, 'spreadsheet'), STATIC_REQUIRE)
    expect([...sheets].some((file) => bundles(worker, file, 'fflate'))).toBe(true)
  })

  it("the CLI loads no package before it starts the workers (Hono's MIME table waits for its first lookup)", () => {
    const main = join(repoRoot, 'out', 'main')
    const first = loadedWith(main, 'cli.js', /^import\s*(?:[^"';]*?\bfrom\s*)?"(\.\/[^"]+)";?$/gm)
    expect([...first].some((file) => file.startsWith('chunks/prestart-'))).toBe(true)
    const packages = [...first].flatMap((file) =>
      [...readFileSync(join(main, file), 'utf8').matchAll(STATIC_IMPORT)]
        .map((match) => match[1] as string)
        .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:')),
    )
    expect(packages).toEqual([])
  })

  it("the CLI's converter on the main thread does not import fflate", () => {
    const imports = [
      ...readFileSync(join(mainChunks, chunk(mainChunks, 'createConverter')), 'utf8').matchAll(STATIC_IMPORT),
    ]
    expect(imports.length).toBeGreaterThan(2)
    expect(imports.map((match) => match[1])).not.toContain('fflate')
  })
})
