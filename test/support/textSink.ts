import { Writable } from 'node:stream'

/** A writable stream that keeps what is written to it as text (a command's stdout in a test). */
export function textSink(): { stream: Writable; text(): string } {
  let written = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += String(chunk)
      done()
    },
  })
  return { stream, text: () => written }
}
