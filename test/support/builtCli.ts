import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
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

export function runCli(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
    })
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`bureau ${args.join(' ')} did not finish; stderr: ${stderr}`))
    }, options.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
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
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
    })
    let stdout = ''
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d
      const match = stdout.match(ready)
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
    child.on('exit', (code) => reject(new Error(`bureau ${args.join(' ')} exited with ${code}: ${stderr}`)))
  })
}
