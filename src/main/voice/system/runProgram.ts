import { spawn } from 'node:child_process'
import { access, constants } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { AppError } from '../../../shared/errors'

/** The full path of a program on PATH, or undefined. */
export async function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const full = join(dir, name)
    const ok = await access(full, constants.X_OK).then(
      () => true,
      () => false,
    )
    if (ok) return full
  }
  return undefined
}

export interface ProgramResult {
  stdout: Buffer
  stderr: string
  code: number | null
}

/** Runs a program with text on stdin (never in its arguments); cancelled by `signal`. */
export function runProgram(
  label: string,
  command: string,
  args: string[],
  options: { input?: string; signal?: AbortSignal | undefined; onLine?: (line: string) => void } = {},
): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(options.signal ? { signal: options.signal } : {}),
    })
    const out: Buffer[] = []
    let err = ''
    let pending = ''
    child.stdout.on('data', (d: Buffer) => {
      out.push(d)
      if (!options.onLine) return
      pending += d.toString('utf8')
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      for (const line of lines) options.onLine(line)
    })
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000)
    })
    child.on('error', (error) => {
      if (options.signal?.aborted) reject(new AppError('CANCELLED', `${label} was cancelled.`))
      else
        reject(
          new AppError(
            'UNAVAILABLE',
            `${label} could not start (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
            { cause: error },
          ),
        )
    })
    child.on('close', (code) => {
      if (options.signal?.aborted) return reject(new AppError('CANCELLED', `${label} was cancelled.`))
      if (pending && options.onLine) options.onLine(pending)
      resolve({ stdout: Buffer.concat(out), stderr: err, code })
    })
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
  })
}
