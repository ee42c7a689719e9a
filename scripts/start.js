#!/usr/bin/env node
// `npm start`: launches the Electron app when its binary is installed, else the headless host.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)

function electronBinary() {
  try {
    const path = require('electron')
    return typeof path === 'string' && existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

const binary = electronBinary()
if (binary) {
  run(binary, ['.', ...process.argv.slice(2)])
} else {
  console.log(
    'Electron binary not installed (run `node node_modules/electron/install.js` where the internet is reachable); starting the headless host instead.',
  )
  run(process.execPath, [
    fileURLToPath(new URL('../bin/bureau.js', import.meta.url)),
    'serve',
    ...process.argv.slice(2),
  ])
}
