import { AsyncLocalStorage } from 'node:async_hooks'
import type { Readable, Writable } from 'node:stream'

/** Where a command writes its output and its messages: the process streams, or a capture in tests. */
export interface TextIo {
  out(text: string): void
  err(text: string): void
}

/** The three streams a command reads and writes. */
export interface CliStreams {
  stdin: Readable & { isTTY?: boolean }
  stdout: Writable
  stderr: Writable
}

const streamsOfRun = new AsyncLocalStorage<CliStreams>()

/**
 * The streams of the command running in this async context: the process's own, or those given to
 * `withCliStreams` (the in-process seam the tests use, so a command's whole output is captured without a
 * child process).
 */
export function cliStreams(): CliStreams {
  return streamsOfRun.getStore() ?? { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }
}

export function withCliStreams<T>(streams: CliStreams, run: () => Promise<T>): Promise<T> {
  return streamsOfRun.run(streams, run)
}

export const processTextIo: TextIo = {
  out: (text) => {
    cliStreams().stdout.write(text)
  },
  err: (text) => {
    cliStreams().stderr.write(text)
  },
}

/** A logger's line sink on the command's stderr. */
export function stderrLine(line: string): void {
  cliStreams().stderr.write(`${line}\n`)
}

/** How every command shows a notice (a damaged settings file, a skipped plugin…): one line on stderr. */
export function noticePrinter(io: TextIo): (notice: { level: string; message: string }) => void {
  return (notice) => io.err(`${notice.level}: ${notice.message}\n`)
}
