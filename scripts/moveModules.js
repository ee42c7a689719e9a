#!/usr/bin/env node
// Moves source files with `git mv` and rewrites every relative path that named them: imports, `vi.mock`
// and `import()` strings in src, test, bench, e2e, eval and scripts, and repo-relative paths
// (`src/main/x/y.ts`) in those folders, docs and READMEs.
//
// Usage:
//   node scripts/moveModules.js moves.txt            move, then rewrite
//   node scripts/moveModules.js --rewrite moves.txt  rewrite only: the moves already happened (e.g. a merge
//                                                    brought them), fix the paths your own files still use
// moves.txt holds one move a line: `old/path.ts new/path.ts` (repo-relative). Several old paths may name the
// same new path (two index files merged into one); only the first is moved, the others must be gone by hand.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, posix } from 'node:path'

const args = process.argv.slice(2)
const rewriteOnly = args.includes('--rewrite')
const listFile = args.find((a) => !a.startsWith('--'))
if (!listFile) {
  console.error('usage: node scripts/moveModules.js [--rewrite] moves.txt')
  process.exit(2)
}

/** @type {Map<string, string>} old path to new path */
const moves = new Map()
for (const line of readFileSync(listFile, 'utf8').split('\n')) {
  const [from, to] = line.trim().split(/\s+/)
  if (from && to) moves.set(posix.normalize(from), posix.normalize(to))
}
const movedTo = new Map([...moves].map(([from, to]) => [to, from]))

const CODE_DIRS = ['src', 'test', 'bench', 'e2e', 'eval', 'scripts']
const TEXT_DIRS = [...CODE_DIRS, 'docs']
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|yml|yaml)$/

const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(f))

/** The tree before the moves: what every old relative path was written against. */
const before = new Set()
for (const file of tracked) {
  const old = movedTo.get(file)
  before.add(old ?? file)
}
if (!rewriteOnly) for (const from of moves.keys()) before.add(from)

const SUFFIXES = ['', '.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json', '/index.ts', '/index.tsx']

function resolveBefore(fromFile, spec) {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), spec))
  for (const suffix of SUFFIXES) {
    if (before.has(base + suffix)) return { file: base + suffix, suffix }
  }
  return undefined
}

function newPathOf(file) {
  return moves.get(file) ?? file
}

function specFor(fromFile, target, suffix) {
  let path = target
  if (suffix === '/index.ts' || suffix === '/index.tsx') path = posix.dirname(target)
  else if (suffix) path = target.slice(0, -suffix.length)
  let spec = posix.relative(posix.dirname(fromFile), path)
  if (!spec.startsWith('.')) spec = `./${spec}`
  return spec
}

function rewriteRelative(oldFile, newFile, text) {
  return text.replace(/(['"`])(\.\.?\/[^'"`\n]*)\1/g, (whole, quote, spec) => {
    const hit = resolveBefore(oldFile, spec)
    if (!hit) return whole
    const target = newPathOf(hit.file)
    if (target === hit.file && newFile === oldFile) return whole
    let suffix = hit.suffix
    // A folder import whose index moved into another folder now names the new index's folder.
    if ((suffix === '/index.ts' || suffix === '/index.tsx') && !/\/index\.tsx?$/.test(target)) suffix = ''
    if (suffix && suffix !== '/index.ts' && suffix !== '/index.tsx' && !target.endsWith(suffix)) suffix = ''
    const next = specFor(newFile, target, suffix)
    return next === spec ? whole : `${quote}${next}${quote}`
  })
}

const repoPaths = [...moves.keys()].sort((a, b) => b.length - a.length)
function rewriteRepoPaths(text) {
  if (!repoPaths.some((p) => text.includes(p.replace(/\.tsx?$/, '')))) return text
  return text.replace(/\b(src|test|bench|e2e|eval|scripts)\/[\w./-]+\.(tsx?|d\.ts)\b/g, (whole) => {
    const to = moves.get(whole)
    return to ?? whole
  })
}

if (!rewriteOnly) {
  const done = new Set()
  for (const [from, to] of moves) {
    if (done.has(to) || !existsSync(from)) continue
    done.add(to)
    mkdirSync(dirname(to), { recursive: true })
    execFileSync('git', ['mv', from, to])
  }
}

let changed = 0
const now = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(f) && statSync(f).isFile())
for (const file of now) {
  const inText = TEXT_DIRS.some((d) => file.startsWith(`${d}/`)) || /(^|\/)README\.md$/.test(file)
  if (!inText || !TEXT.test(file)) continue
  const oldFile = movedTo.get(file) ?? file
  const text = readFileSync(file, 'utf8')
  let next =
    CODE.test(file) && CODE_DIRS.some((d) => file.startsWith(`${d}/`))
      ? rewriteRelative(oldFile, file, text)
      : text
  next = rewriteRepoPaths(next)
  if (next !== text) {
    writeFileSync(file, next)
    changed++
  }
}
console.log(`${moves.size} moves, ${changed} files rewritten`)
