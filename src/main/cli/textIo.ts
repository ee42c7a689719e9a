/** Where a command writes its output and its messages: the process streams, or a capture in tests. */
export interface TextIo {
  out(text: string): void
  err(text: string): void
}

export const processTextIo: TextIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}
