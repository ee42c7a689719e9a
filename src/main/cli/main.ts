import { prestartConvert } from './convert/prestart'

// `bureau convert big.pdf | head`: the reader closed the pipe, which is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
}

// Entry of the built `bureau` command (out/main/cli.js). A conversion's workers start before the
// command tree is loaded (that is imported after, not statically, so that it does not load first).
// Exits once output is flushed, so an idle handle left by a library (a watcher, a keep-alive socket)
// cannot keep a finished command alive.
prestartConvert(process.argv.slice(2))
const { runCli } = await import('./index')
const code = await runCli(process.argv)
process.exitCode = code
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
