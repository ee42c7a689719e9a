#!/usr/bin/env node
import { existsSync } from 'node:fs'
import module from 'node:module'

// Node >= 22.1 keeps V8's compiled code of the CLI's modules on disk between runs (Node 20 has no
// such cache for ES modules; there the call is skipped).
module.enableCompileCache?.()

const entry = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write('Bureau is not built yet: run `npm run build` first.\n')
  process.exit(1)
}
await import(entry.href)
