#!/usr/bin/env node
import { existsSync } from 'node:fs'

const entry = new URL('../out/main/cli.js', import.meta.url)
if (!existsSync(entry)) {
  process.stderr.write('Bureau is not built yet: run `npm run build` first.\n')
  process.exit(1)
}
await import(entry.href)
