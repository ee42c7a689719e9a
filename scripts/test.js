#!/usr/bin/env node
// `npm test` and `npm run test:soak`: runs the steps of a tier one after the other, stops at the first that
// fails, then prints how long each took and one summary of what was skipped for a missing system program
// or third-party folder, with the single `apt-get install` line that brings them all.
//
// Suites record their skips through test/support/requirements.ts into the file named by BUREAU_SKIP_LOG,
// which this script makes fresh for each run.
//
// Usage: node scripts/test.js [fast|soak]
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const TIERS = {
  fast: [
    ['build', 'npm', ['run', 'build']],
    ['lint', 'npm', ['run', 'lint']],
    ['depcheck', 'npm', ['run', 'depcheck']],
    ['vitest', 'npm', ['run', 'test:unit']],
    ['playwright + typecheck', 'node', ['scripts/sideBySide.js', 'test:e2e', 'typecheck']],
  ],
  soak: [
    ['build', 'npm', ['run', 'build']],
    ['vitest (soak)', 'npm', ['run', 'test:unit:soak']],
    ['playwright (soak)', 'npm', ['run', 'test:e2e:soak']],
  ],
}

const tier = process.argv[2] ?? 'fast'
const steps = TIERS[tier]
if (!steps) {
  process.stderr.write(`usage: node scripts/test.js [${Object.keys(TIERS).join('|')}]\n`)
  process.exit(2)
}

const logDir = mkdtempSync(join(tmpdir(), 'bureau-skips-'))
const skipLog = join(logDir, 'skips.jsonl')
const env = { ...process.env, BUREAU_SKIP_LOG: skipLog }

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' })
    child.on('error', () => resolve(1))
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/** The recorded skips, one entry per suite, with the Debian packages that would bring what they lacked. */
function readSkips() {
  let text = ''
  try {
    text = readFileSync(skipLog, 'utf8')
  } catch {
    return []
  }
  const bySuite = new Map()
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const entry = JSON.parse(line)
      bySuite.set(entry.suite, entry.reasons)
    } catch {
      // a line cut by a killed worker: the others still count
    }
  }
  return [...bySuite].map(([suite, reasons]) => ({ suite, reasons }))
}

function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(0)} s`
}

let failed = ''
const times = []
const started = Date.now()
for (const [name, command, args] of steps) {
  const begin = Date.now()
  const code = await run(command, args)
  times.push([name, Date.now() - begin])
  if (code !== 0) {
    failed = name
    break
  }
}

const lines = ['', `Test tier "${tier}": ${failed ? `FAILED at ${failed}` : 'passed'}`]
for (const [name, ms] of times) lines.push(`  ${name.padEnd(24)} ${formatSeconds(ms)}`)
lines.push(`  ${'total'.padEnd(24)} ${formatSeconds(Date.now() - started)}`)

const skips = readSkips()
if (skips.length === 0) {
  lines.push('Skipped for a missing program or folder: nothing.')
} else {
  const reasons = new Set()
  const packages = new Set()
  for (const skip of skips)
    for (const reason of skip.reasons) {
      reasons.add(reason.reason)
      for (const pkg of reason.apt) packages.add(pkg)
    }
  lines.push(`Skipped ${skips.length} suite(s) for what this machine lacks:`)
  for (const reason of [...reasons].sort()) lines.push(`  - ${reason}`)
  if (packages.size > 0)
    lines.push(`To run them all: sudo apt-get install -y ${[...packages].sort().join(' ')}`)
}
process.stdout.write(`${lines.join('\n')}\n`)
rmSync(logDir, { recursive: true, force: true })
process.exit(failed ? 1 : 0)
