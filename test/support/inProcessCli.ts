import { Readable } from 'node:stream'
import { runCli } from '../../src/main/cli'
import type { CliResult } from './builtCli'
import { textSink } from './textSink'

// The `bureau` command run inside the test's own process through its `runCli(argv, streams)` seam: the same
// command tree, options, services and exit codes as the built command, without a Node start-up per call
// (about a second each on this machine). Tests that need a real process — signals, pipes, start-up, the
// code cache, the built bundle — spawn the built command instead (builtCli.ts).

let queue: Promise<unknown> = Promise.resolve()

/** Runs one command at a time: the command reads process.env, which a run's `env` overrides for its length. */
function serialised<T>(run: () => Promise<T>): Promise<T> {
  const next = queue.then(run, run)
  queue = next.catch(() => undefined)
  return next
}

export interface InProcessOptions {
  /** Standard input, ended after it is read; none means an empty stdin. */
  input?: string
  /** Environment variables for this run (`undefined` removes one). */
  env?: NodeJS.ProcessEnv
  /** Fails the test when the command has not finished by then (default 60 s). */
  timeoutMs?: number
}

export function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  return serialised(async () => {
    const saved = new Map<string, string | undefined>()
    for (const [key, value] of Object.entries(options.env ?? {})) {
      saved.set(key, process.env[key])
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    const stdout = textSink()
    const stderr = textSink()
    const stdin = options.input === undefined ? Readable.from([]) : Readable.from([options.input])
    const savedExitCode = process.exitCode
    try {
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`bureau ${args.join(' ')} did not finish; stderr: ${stderr.text()}`)),
          options.timeoutMs ?? 60_000,
        )
      })
      const code = await Promise.race([
        runCli(['node', 'bureau', ...args], { stdin, stdout: stdout.stream, stderr: stderr.stream }),
        deadline,
      ]).finally(() => clearTimeout(timer))
      return { code, stdout: stdout.text(), stderr: stderr.text() }
    } finally {
      process.exitCode = savedExitCode
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  })
}
