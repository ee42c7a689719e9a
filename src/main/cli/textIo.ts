/** Where a command writes its output and its messages: the process streams, or a capture in tests. */
export interface TextIo {
  out(text: string): void
  err(text: string): void
}

export const processTextIo: TextIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}

/** How every command shows a notice (a damaged settings file, a skipped plugin…): one line on stderr. */
export function noticePrinter(io: TextIo): (notice: { level: string; message: string }) => void {
  return (notice) => io.err(`${notice.level}: ${notice.message}\n`)
}
