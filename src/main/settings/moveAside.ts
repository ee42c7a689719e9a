import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-')
}

/**
 * Renames `settings.json` to `settings.corrupt-<timestamp>.json` next to it and returns the new
 * file name (never the folder: notices do not carry host paths). `replacement`, when given, is what
 * the kept copy should hold instead of the original bytes (the original minus plaintext secrets).
 */
export function moveAside(path: string, now: Date, replacement?: string): string | undefined {
  if (!existsSync(path)) return undefined
  const ext = extname(path)
  const stem = basename(path, ext)
  let target = join(dirname(path), `${stem}.corrupt-${stamp(now)}${ext}`)
  for (let n = 2; existsSync(target); n++)
    target = join(dirname(path), `${stem}.corrupt-${stamp(now)}-${n}${ext}`)
  renameSync(path, target)
  if (replacement !== undefined) writeFileSync(target, replacement, { mode: 0o600 })
  return basename(target)
}
