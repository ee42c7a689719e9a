import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { appendFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url))
export const cliPath = fileURLToPath(new URL('../../bin/bureau.js', import.meta.url))

/** The CLI tests run the built command, as a user would; `npm test` builds first. */
export function assertBuilt(): void {
  if (!existsSync(new URL('../../out/main/cli.js', import.meta.url))) {
    throw new Error('out/main/cli.js is missing: run `npm run build` before these tests (npm test does).')
  }
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** The built command as a child process; its output is collected in `output` as it arrives. */
export function spawnCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): { child: ChildProcessWithoutNullStreams; output: { stdout: string; stderr: string } } {
  const child = spawn(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const output = { stdout: '', stderr: '' }
  const spawnLog = process.env.BUREAU_SPAWN_LOG
  if (spawnLog) {
    const started = Date.now()
    child.on('exit', () =>
      appendFileSync(spawnLog, `${JSON.stringify({ args: args.slice(0, 3), ms: Date.now() - started })}\n`),
    )
  }
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    output.stdout += d
  })
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    output.stderr += d
  })
  return { child, output }
}

export function runCli(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const { child, output } = spawnCli(args, options)
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`bureau ${args.join(' ')} did not finish; stderr: ${output.stderr}`))
    }, options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, ...output })
    })
    child.stdin.end(options.input ?? '')
  })
}

/** Starts a long-running command (e.g. `serve`) and resolves once a stdout line matches. */
export function startCli(
  args: string[],
  ready: RegExp,
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ child: ChildProcess; match: RegExpMatchArray; stop(): Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const { child, output } = spawnCli(args, options)
    child.stdout.on('data', () => {
      const match = output.stdout.match(ready)
      if (match) {
        resolve({
          child,
          match,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done(child.exitCode)
              child.once('exit', (code) => done(code))
              child.kill('SIGTERM')
            }),
        })
      }
    })
    child.on('exit', (code) =>
      reject(new Error(`bureau ${args.join(' ')} exited with ${code}: ${output.stderr}`)),
    )
  })
}
