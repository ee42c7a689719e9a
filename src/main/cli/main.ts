import { runCli } from './index'

// `bureau convert big.pdf | head`: the reader closed the pipe, which is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
    throw error
  })
}

// Entry of the built `bureau` command (out/main/cli.js). Exits once output is flushed, so an idle
// handle left by a library (a watcher, a keep-alive socket) cannot keep a finished command alive.
const code = await runCli(process.argv)
process.exitCode = code
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
