import type { Readable } from 'node:stream'
import { UsageError } from '../program'
import { cliStreams } from '../textIo'

const MAX_INPUT_BYTES = 64 * 1024

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += buffer.length
    if (size > MAX_INPUT_BYTES) throw new UsageError('The value on stdin is too long.')
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Reads one line from the terminal without echoing it. */
function readHiddenLine(stdin: NodeJS.ReadStream, prompt: string): Promise<string> {
  cliStreams().stderr.write(prompt)
  return new Promise((resolve, reject) => {
    let value = ''
    const finish = (error?: Error) => {
      stdin.off('data', onData)
      stdin.setRawMode(false)
      stdin.pause()
      cliStreams().stderr.write('\n')
      if (error) reject(error)
      else resolve(value)
    }
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish()
        if (char === '\u0003') return finish(new UsageError('Cancelled.'))
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1)
        else if (char >= ' ') value += char
      }
    }
    stdin.setRawMode(true)
    stdin.setEncoding('utf8')
    stdin.on('data', onData)
    stdin.resume()
  })
}

/** The secret's value: piped on stdin, or typed at a hidden prompt. Never from argv. */
export async function readSecretInput(name: string): Promise<string> {
  const stdin = cliStreams().stdin
  const text = stdin.isTTY
    ? await readHiddenLine(stdin as NodeJS.ReadStream, `Value for ${name} (input hidden): `)
    : await readAll(stdin)
  return text.replace(/\r?\n$/, '')
}
