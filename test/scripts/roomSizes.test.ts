import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** A folder with more files than this at one level is a heap: group its files into subfolders by idea. */
const MOST_FILES_IN_ONE_FOLDER = 25

function filesPerFolder(dir: string, counts = new Map<string, number>()): Map<string, number> {
  let files = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) filesPerFolder(join(dir, entry.name), counts)
    else files++
  }
  counts.set(dir, files)
  return counts
}

describe('source rooms', () => {
  it(`no folder under src holds more than ${MOST_FILES_IN_ONE_FOLDER} files at one level`, () => {
    const counts = filesPerFolder('src')
    expect(counts.size).toBeGreaterThan(50)
    const heaps = [...counts]
      .filter(([, n]) => n > MOST_FILES_IN_ONE_FOLDER)
      .map(([dir, n]) => `${dir}: ${n}`)
    expect(heaps).toEqual([])
  })
})
