import { runCli } from './index'

// Entry of the built `bureau` command (out/main/cli.js). Exits once output is flushed, so an idle
// handle left by a library (a watcher, a keep-alive socket) cannot keep a finished command alive.
const code = await runCli(process.argv)
process.exitCode = code
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
