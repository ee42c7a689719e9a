import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** The maps a newcomer reads: the docs folder, the README and each folder's README under src. */
function docs(): string[] {
  const found = [
    'README.md',
    ...readdirSync('docs')
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ]
  for (const file of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('README.md')) found.push(join('src', file))
  }
  return found
}

const SERVICES = readdirSync('src/main', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `src/main/${entry.name}`)

/**
 * A file path a doc names (`src/main/x/y.ts`, `spreadsheet/cells/address.ts`, `docx/viaHtml.ts`), found from
 * the repository, the doc's folder, src, src/main, the renderer, or one service folder (a doc about a
 * service names its files from there).
 */
function resolves(doc: string, path: string): boolean {
  const bases = ['.', dirname(doc), 'src', 'src/main', 'src/renderer/src', 'src/renderer', ...SERVICES]
  return bases.some((base) => existsSync(join(base, path)))
}

const PATH = /(?<![\w/.@:-])([\w.-]+(?:\/[\w.[\]-]+)+\.(?:tsx?|cjs|mjs|json|md))(?![\w/])/g

describe('the docs are true to the code', () => {
  it('every file path named in README.md, docs/*.md and the READMEs under src exists', () => {
    const missing: string[] = []
    let named = 0
    for (const doc of docs()) {
      for (const [, path] of readFileSync(doc, 'utf8').matchAll(PATH)) {
        // out/ is what `npm run build` writes: not in a fresh clone, so not a path the docs can be held to.
        if (!path || path.startsWith('out/')) continue
        named++
        if (!resolves(doc, path)) missing.push(`${doc}: ${path}`)
      }
    }
    expect(named).toBeGreaterThan(50)
    expect(missing).toEqual([])
  })

  it("the README's eval task count is the number of tasks in eval/tasks", () => {
    const tasks = readdirSync('eval/tasks', { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && existsSync(join('eval/tasks', entry.name, 'task.json')),
    )
    const stated = /office task suite in `eval\/` \((\d+) tasks/.exec(readFileSync('README.md', 'utf8'))?.[1]
    expect(Number(stated)).toBe(tasks.length)
  })

  it('the layer table of docs/architecture.md is the one .dependency-cruiser.cjs enforces', () => {
    const { layers } = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
      layers: { name: string; root?: string; folders: string[]; may: string[] }[]
    }
    const doc = readFileSync('docs/architecture.md', 'utf8')
    const rows = doc
      .split('\n')
      .filter((line) => /^\|\s*`\w+`\s*\|/.test(line))
      .map((line) => {
        const [, name = '', folders = '', may = ''] = line.split('|')
        const names = (cell: string) => [...cell.matchAll(/`([\w.]+)`/g)].map((m) => m[1])
        return { name: names(name)[0], folders: names(folders), may: names(may) }
      })
    expect(rows).toEqual(layers.map(({ name, folders, may }) => ({ name, folders, may })))
  })
})
