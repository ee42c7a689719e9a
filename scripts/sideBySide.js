#!/usr/bin/env node
// Runs npm scripts at the same time and fails when any of them fails. The first one's output streams as
// it comes; each later one's is held and printed, in order, once the ones before it have finished, so
// the log reads as if they had run one after the other.
//
// Why: the end-to-end tests leave much of the two cores idle (they wait on the browser, the scripted model
// and the host), time the type check fills. The unit tests do not run beside them: measured, Vitest's
// three workers and Playwright's two browsers together ran far slower than one after the other.
//
// Usage: node scripts/sideBySide.js <npm script> [<npm script> ...]
import { spawn } from 'node:child_process'

const names = process.argv.slice(2)
if (names.length === 0) {
  process.stderr.write('usage: node scripts/sideBySide.js <npm script> [<npm script> ...]\n')
  process.exit(2)
}

const CLOSE_GRACE_MS = 2_000
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const jobs = names.map((name) => {
  const child = spawn(npm, ['run', '--silent', name], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
    shell: process.platform === 'win32',
  })
  const job = { name, child, held: [], live: false, done: null }
  const take = (stream, out) =>
    stream.on('data', (chunk) => {
      if (job.live) out.write(chunk)
      else job.held.push([out, chunk])
    })
  take(child.stdout, process.stdout)
  take(child.stderr, process.stderr)
  job.done = new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: 1, error }))
    child.on('exit', (code, signal) => {
      // A process the script left running may hold its output open: read what comes for a moment after
      // the exit, then stop listening rather than wait for it.
      const settle = () => resolve({ code: code ?? 1, signal })
      const grace = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
        settle()
      }, CLOSE_GRACE_MS)
      child.on('close', () => {
        clearTimeout(grace)
        settle()
      })
    })
  })
  return job
})

// A Ctrl-C in a terminal reaches the whole process group, the scripts too: passing it on would be a
// second Ctrl-C, which test runners take as "stop without cleaning up". This process waits for them and
// prints what they wrote. A SIGTERM is sent to this process alone (a CI timeout): it is passed on, once.
process.on('SIGINT', () => {})
process.once('SIGTERM', () => {
  for (const job of jobs)
    if (job.child.exitCode === null && job.child.signalCode === null) job.child.kill('SIGTERM')
})

const failed = []
for (const job of jobs) {
  for (const [out, chunk] of job.held) out.write(chunk)
  job.held = []
  job.live = true
  const outcome = await job.done
  if (outcome.error) process.stderr.write(`\n${job.name} could not start: ${outcome.error.message}\n`)
  if (outcome.code !== 0) failed.push(`${job.name} (exit ${outcome.signal ?? outcome.code})`)
}
if (failed.length > 0) {
  process.stderr.write(`\nFailed: ${failed.join(', ')}\n`)
  // Not process.exit(): output still queued for a pipe (a long list of type errors) would be cut off.
  process.exitCode = 1
}
