import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { repoRoot } from '../support/builtCli'
import { fixtureEntries, fixturePath } from '../support/fixtures'

// A fresh clone has nothing beside it: no test, spec, benchmark, script or product file may read a
// folder outside the repository (the workplace's shared corpus beside it in particular), except through
// the one helper that finds the third-party folder, skips what needs it when it is absent, and fails
// under BUREAU_CI (test/support/requirements.ts).
const THIRD_PARTY_HELPER = 'test/support/requirements.ts'
/** Product code that names the folder as a user's default, never read by a test: `--suite officebench`. */
const PRODUCT_DEFAULTS = ['src/main/eval/officebench/loadSuite.ts']

const tracked = execFileSync(
  'git',
  [
    'ls-files',
    '--cached',
    '--others',
    '--exclude-standard',
    'src',
    'test',
    'e2e',
    'bench',
    'scripts',
    'eval',
    '.ci',
  ],
  {
    cwd: repoRoot,
    encoding: 'utf8',
  },
)
  .split('\n')
  .filter((file) => /\.(ts|tsx|js|cjs|mjs|sh)$|(^|\/)run$/.test(file))

/** Quoted relative paths in a file that, resolved from the file's folder, land outside the repository. */
function escapingPaths(file: string, text = readFileSync(join(repoRoot, file), 'utf8')): string[] {
  const found: string[] = []
  for (const [, literal] of text.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
    const target = resolve(repoRoot, dirname(file), literal as string)
    if (relative(repoRoot, target).startsWith('..')) found.push(literal as string)
  }
  if (/shared\/corpus|shared\/fixtures|['"]\.\.['"],\s*['"]shared['"]/.test(text))
    found.push(`..${'/'}shared`)
  return found
}

describe('a fresh clone needs nothing beside the repository', () => {
  it('finds the files it scans', () => {
    expect(tracked.length).toBeGreaterThan(300)
    expect(tracked).toContain('test/support/fixtures.ts')
  })

  it('has no source, test, spec, bench or CI file that reads outside the repository', () => {
    const offenders = tracked
      .filter((file) => file !== THIRD_PARTY_HELPER && !PRODUCT_DEFAULTS.includes(file))
      .flatMap((file) => escapingPaths(file).map((p) => `${file}: ${p}`))
    expect(offenders).toEqual([])
  })

  it('catches a path that leaves the repository (the check itself can fail)', () => {
    // Spelled in pieces so that this file does not itself contain what it looks for.
    const outside = `${'../'.repeat(3)}${['shared', 'corpus'].join('/')}/a.pdf`
    expect(escapingPaths('test/main/x.test.ts', `readFile('${outside}')`)).toContain(outside)
    expect(escapingPaths('e2e/x.spec.ts', "new URL('../../data/a.pdf', import.meta.url)")).toEqual([
      '../../data/a.pdf',
    ])
    expect(escapingPaths('bench/x.ts', `join(repoRoot, '..', '${'shared'}', 'corpus')`)).toEqual([
      `..${'/'}shared`,
    ])
    expect(escapingPaths('test/main/x.test.ts', "import { a } from '../../src/main/a'")).toEqual([])
  })

  it("holds only the project's fixtures: no other project's licence file, the core documents with their script", () => {
    const licences = execFileSync('git', ['ls-files', '--cached', 'test', 'eval', 'e2e', 'bench'], {
      cwd: repoRoot,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /(^|\/)LICENSE\.[a-z]+$/.test(file))
    expect(licences).toEqual([])
    expect(fixtureEntries('core')).toEqual(
      expect.arrayContaining(['report.docx', 'sheet.xlsx', 'report.pdf', 'scan.jpg', 'vectors.json']),
    )
    expect(readFileSync(fixturePath('README.md'), 'utf8')).toMatch(/make\/makeCore\.ts/)
  })

  it('fails loudly on a missing fixture or an empty selection instead of running zero cases', () => {
    expect(() => fixturePath('no-such-folder')).toThrow(
      /Test fixture missing: test\/fixtures\/no-such-folder/,
    )
    expect(() => fixtureEntries('core', (name) => name.endsWith('.nothing'))).toThrow(/no matching files/)
  })
})
