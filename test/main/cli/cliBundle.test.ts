import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, repoRoot } from '../../support/builtCli'

// The build has two entries: out/main/cli.js (the CLI and the headless host, plain Node) and
// out/main/index.js (the desktop app, which imports electron). A module that only the desktop app uses
// statically lands in index.js; a shared chunk that re-exports it then imports index.js, and the CLI
// fails with "Named export 'BrowserWindow' not found" at the first command that loads that chunk.
const out = join(repoRoot, 'out', 'main')
// The conversion worker is a build of its own (out/worker, CommonJS), which the pool starts by name.
const workerEntry = join(repoRoot, 'out', 'worker', 'workerMain.cjs')
// Static and dynamic imports, `require()` of the worker's chunks, and the worker entries a chunk names by
// path beside it (`join(import.meta.dirname, "./….js")`, `new URL("./….js", import.meta.url)`).
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*|import\.meta\.dirname,\s*|new URL\(\s*)["'](\.{1,2}\/[^"']+)["']/g
/** Only the static imports: what loads before any of the file's code runs. */
const STATIC_SPECIFIER = /(?:^|\n)import\s*(?:[^"';]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g

/** Every file of the build the CLI can load: static and dynamic imports, followed from cli.js. */
function reachableFrom(entries: string[], pattern = SPECIFIER): Map<string, string> {
  const from = new Map<string, string>(entries.map((entry) => [entry, '(entry)']))
  const queue = [...entries]
  for (let file = queue.pop(); file; file = queue.pop()) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) {
      const target = resolve(dirname(file), match[1]!)
      // Bundled libraries' own text may spell a relative path that is not a file of the build.
      if (!/\.c?js$/.test(target) || from.has(target) || !existsSync(target)) continue
      from.set(target, relative(out, file))
      queue.push(target)
    }
  }
  return from
}

describe('the built CLI', () => {
  let reachable: Map<string, string>
  beforeAll(() => {
    assertBuilt()
    reachable = reachableFrom([join(out, 'cli.js'), workerEntry])
  })

  it('reaches the chunks it loads (the walk follows both kinds of import)', () => {
    const names = [...reachable.keys()].map((file) => relative(out, file))
    expect(names.some((name) => /^chunks\/runConvert-/.test(name))).toBe(true)
    expect(names.some((name) => /^chunks\/settings-/.test(name))).toBe(true)
    // The conversion worker's build, and the format chunks it requires.
    expect(names.some((name) => /^\.\.\/worker\/convertWorker-[\w-]+\.cjs$/.test(name))).toBe(true)
    expect(names.some((name) => /^\.\.\/worker\/docx-[\w-]+\.cjs$/.test(name))).toBe(true)
    expect(names.some((name) => /^\.\.\/worker\/convertPdf-[\w-]+\.cjs$/.test(name))).toBe(true)
  })

  it('starts the conversion workers before it loads zod, commander or the converter', () => {
    // cli.js runs prestart before it imports the command tree: its static imports are all that loads first.
    const first = [...reachableFrom([join(out, 'cli.js')], STATIC_SPECIFIER).keys()].map((file) =>
      relative(out, file),
    )
    expect(first.some((name) => /^chunks\/prestart-/.test(name))).toBe(true)
    const heavy = first.filter((name) => /^chunks\/(schemas|program|createConverter|cli)-/.test(name))
    expect(heavy).toEqual([])
    // Whatever the chunks are named: neither library's code is among them.
    const text = first.map((name) => readFileSync(join(out, name), 'utf8')).join('\n')
    expect(text).not.toMatch(/\bZodError\b|\bCommanderError\b/)
  })

  it('never loads the desktop app’s entry, which imports electron', () => {
    const entry = join(out, 'index.js')
    expect(readFileSync(entry, 'utf8')).toMatch(/from ["']electron["']/)
    expect(reachable.has(entry), `imported by ${reachable.get(entry)}`).toBe(false)
  })

  it('imports electron from none of the files it can load', () => {
    const electron = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'`]electron(?:\/[\w-]+)?["'`]/
    const importers = [...reachable.keys()].filter((file) => electron.test(readFileSync(file, 'utf8')))
    expect(importers.map((file) => relative(out, file))).toEqual([])
  })
})
